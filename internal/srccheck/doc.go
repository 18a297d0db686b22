// Package srccheck holds tests over the repository's source itself: the
// length of functions, and the package layout that README.md describes
// against the imports that `go list` reports. It has no code of its own.
package srccheck
