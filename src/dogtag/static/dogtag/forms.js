// A page with a form's error summary: move focus to it (and so scroll to it), so a keyboard or
// screen-reader user hears the problems first and can follow each link to its field.
document.addEventListener("DOMContentLoaded", () => {
  const summary = document.querySelector(".error-summary");
  if (summary) { summary.focus(); summary.scrollIntoView({ block: "start" }); }
});
