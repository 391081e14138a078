// Package browsertest holds the tests that drive a real headless Chromium
// against Quiver's HTTP handler: the /docs page, as a visitor uses it.
// It has no code of its own; it is a package of its own so that the
// browser driver (chromedp) stays out of the library's import graph.
//
// The tests need Debian's chromium package (or another Chromium or Chrome
// on the PATH). Without one they skip, except when CI or
// QUIVER_REQUIRE_BROWSER=1 is set: then they fail, so that CI cannot pass
// without having run them (.ci/run installs chromium and sets it).
package browsertest
