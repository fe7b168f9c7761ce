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
  if (!picker || event.target.type !== "search") return;
  picker.querySelector("[data-pick-value]").value = "";
  const link = picker.querySelector("[data-pick-new]");
  if (link) {
    const url = new URL(link.href, location.href);
    url.searchParams.set("name", event.target.value);
    url.searchParams.set("next", location.pathname);
    link.href = url.pathname + url.search;
  }
});
