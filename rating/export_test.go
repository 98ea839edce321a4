package rating

// Workers is how many cores share a fit's work: tests set it.
var Workers = &workers
