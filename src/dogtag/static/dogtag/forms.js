// A page with a form's error summary: move focus to it (and so scroll to it), so a keyboard or
// screen-reader user hears the problems first and can follow each link to its field.
document.addEventListener("DOMContentLoaded", () => {
  const summary = document.querySelector(".error-summary");
  if (summary) { summary.focus(); summary.scrollIntoView({ block: "start" }); }
});

// Pickers (registry/_picker.html): choosing a match fills the hidden field; typing clears the
// choice and carries the text to the "New person / New premises" link.
document.addEventListener("click", (event) => {
  const option = event.target.closest("[data-pick]");
  if (!option) return;
  const picker = option.closest("[data-picker]");
  picker.querySelector("[data-pick-value]").value = option.dataset.pick;
  picker.querySelector("input[type=search]").value = option.dataset.label;
  picker.querySelector(".picker-results").replaceChildren();
});
document.addEventListener("input", (event) => {
  const picker = event.target.closest("[data-picker]");
  if (!picker || event.target.type !== "search" || event.target.closest("[data-pick-form]")) return;
  picker.querySelector("[data-pick-value]").value = "";
});

// A picker's "New person / New premises" in place (registry/_new_inline.html): it sits inside the
// page's form, so Enter in its fields saves the new record instead of submitting the page's form;
// Cancel closes it; focus goes to its first empty field when it opens and to the picker once it is saved.
document.addEventListener("keydown", (event) => {
  const inline = event.target.closest("[data-pick-form]");
  if (!inline || event.key !== "Enter" || event.target.tagName === "TEXTAREA" || event.target.tagName === "BUTTON") return;
  event.preventDefault();
  inline.querySelector("[data-pick-save]").click();
});
document.addEventListener("click", (event) => {
  const cancel = event.target.closest("[data-pick-cancel]");
  if (!cancel) return;
  const picker = cancel.closest("[data-picker]");
  cancel.closest(".picker-inline").replaceChildren();
  picker.querySelector("[data-pick-new]").focus();
});
document.addEventListener("htmx:afterSwap", (event) => {
  const target = event.detail.target;
  if (!target.classList.contains("picker-inline")) return;
  // the first field in error, else the first one still empty (what was typed fills the name or address)
  const field = target.querySelector(".invalid input, .invalid select")
    || target.querySelector("input:not([value]):not([type=checkbox])") || target.querySelector("input, select");
  if (field) field.focus();
});
document.addEventListener("htmx:load", (event) => {
  const picker = event.detail.elt;  // a picker swapped in whole: the new record saved and chosen
  if (picker.matches && picker.matches("[data-picker]")) picker.querySelector("input[type=search]").focus();
});

// A table wider than a phone scrolls sideways inside its own box (dogtag.css): one the keyboard can
// reach (tabindex 0) scrolls with the arrow keys too (WCAG 2.1.1). Checked again as the window
// resizes and after an htmx swap.
function reachableTables() {
  for (const table of document.querySelectorAll("table")) {
    if (table.scrollWidth > table.clientWidth) table.tabIndex = 0;
    else if (table.getAttribute("tabindex") === "0") table.removeAttribute("tabindex");
  }
}
document.addEventListener("DOMContentLoaded", reachableTables);
document.addEventListener("htmx:afterSettle", reachableTables);
window.addEventListener("resize", reachableTables);
