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
// A file larger than its field accepts (`data-max-bytes`, lib/uploads.py UploadField) is refused
// before it is sent: the server would refuse the whole request unread (lib/body_limit.py) and could
// not draw the form again. The page gets the forms' error summary, linked and focused, and the
// field its error after the input, named by aria-describedby; nothing is sent, so nothing is stored.
document.addEventListener("submit", (event) => {
  const form = event.target;
  const problems = [];
  for (const input of form.querySelectorAll("input[type=file][data-max-bytes]")) {
    const limit = Number(input.dataset.maxBytes);
    const file = [...input.files].find((f) => f.size > limit);
    const previous = document.getElementById(`${input.id}_error`);
    if (!file) {
      if (previous && previous.dataset.sizeCheck) previous.remove();
      continue;
    }
    const message = `The file is ${(file.size / 1e6).toFixed(1)} MB; the largest accepted is ${Math.round(limit / 1e6)} MB.`;
    const error = document.createElement("span");
    error.className = "field-error";
    error.id = `${input.id}_error`;
    error.dataset.sizeCheck = "1";
    error.textContent = message;
    if (previous) previous.replaceWith(error); else input.after(error);
    input.setAttribute("aria-invalid", "true");
    const described = (input.getAttribute("aria-describedby") || "").split(" ").filter((id) => id && id !== error.id);
    input.setAttribute("aria-describedby", [...described, error.id].join(" "));
    const label = document.querySelector(`label[for="${input.id}"]`);
    problems.push([input.id, `${label ? label.textContent.trim() : input.name}: ${message}`]);
  }
  if (!problems.length) return;
  event.preventDefault();
  const summary = document.createElement("div");
  summary.className = "error-summary";
  summary.setAttribute("role", "alert");
  summary.tabIndex = -1;
  summary.setAttribute("aria-labelledby", "error-summary-h");
  const heading = document.createElement("h2");
  heading.id = "error-summary-h";
  heading.textContent = problems.length === 1 ? "There is a problem" : "There are problems";
  const list = document.createElement("ul");
  for (const [id, text] of problems) {
    const link = document.createElement("a");
    link.href = `#${id}`;
    link.textContent = text;
    list.append(document.createElement("li"));
    list.lastChild.append(link);
  }
  summary.append(heading, list);
  const existing = document.querySelector(".error-summary");
  if (existing) existing.replaceWith(summary);
  else {
    const title = document.querySelector("main h1");
    if (title) title.after(summary); else document.querySelector("main").prepend(summary);
  }
  summary.focus();
  summary.scrollIntoView({ block: "start" });
});
