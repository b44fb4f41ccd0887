// Loaded first, before the page is drawn: styles that need the script (folded tabs, toasts)
// apply from the first paint instead of after a jump.
document.documentElement.classList.add("js");
