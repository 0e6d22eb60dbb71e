// Names the theme leaves out (WCAG 2.1 AA, 4.1.2 and 2.5.3), found by axe-core in
// tests/browser/test_accessibility.py:
// - the sidebar's expand/collapse toggles are <summary> elements holding only an icon;
// - the search button's accessible name ("Search") omits its visible text
//   ("Search Ctrl+K"), so speech control cannot call it by what it shows.
document.addEventListener("DOMContentLoaded", () => {
  for (const summary of document.querySelectorAll("summary")) {
    if (!summary.textContent.trim() && !summary.getAttribute("aria-label")) {
      const link = summary.parentElement.parentElement.querySelector(":scope > a");
      const what = link ? link.textContent.trim() : "this section";
      summary.setAttribute("aria-label", `Show or hide the pages under ${what}`);
    }
  }
  for (const button of document.querySelectorAll(".search-button-field[aria-label]")) {
    const visible = button.textContent.replace(/\s+/g, " ").trim();
    if (visible) button.setAttribute("aria-label", visible);
  }
});
