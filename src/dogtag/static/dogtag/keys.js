// "/" jumps to the search box from anywhere but a text field.
document.addEventListener("keydown", (e) => {
  const t = e.target.tagName;
  if (e.key === "/" && t !== "INPUT" && t !== "TEXTAREA" && t !== "SELECT") {
    e.preventDefault();
    document.getElementById("q")?.focus();
  }
});

// "Cancel" goes back a page (the link's own address, the page before, is the fallback without script).
document.addEventListener("click", (e) => {
  const link = e.target.closest("a[data-back]");
  if (link && history.length > 1) {
    e.preventDefault();
    history.back();
  }
});
