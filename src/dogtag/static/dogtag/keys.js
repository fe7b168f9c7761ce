// "/" jumps to the search box from anywhere but a text field.
document.addEventListener("keydown", (e) => {
  const t = e.target.tagName;
  if (e.key === "/" && t !== "INPUT" && t !== "TEXTAREA" && t !== "SELECT") {
    e.preventDefault();
    document.getElementById("q")?.focus();
  }
});

// "Cancel" is a plain link to the page the user came from (registry/templatetags/back.py): not
// history.back(), which after a refused submit returns to the same form.
