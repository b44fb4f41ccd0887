// Loaded first, before the page is drawn: styles that need the script (folded tabs, toasts)
// apply from the first paint instead of after a jump.
document.documentElement.classList.add("js");
// On a phone the roster's tab shows first. Until the deferred script has set the tabs up, the
// other parts stay hidden too, so they do not flash up and push the page about; an address
// naming a part (#print) is left to the script, which shows that part's tab.
if (!location.hash) document.documentElement.classList.add("roster-first");
