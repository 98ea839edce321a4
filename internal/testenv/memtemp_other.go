//go:build !linux

package testenv

// MemoryTemp returns "": only Linux's /dev/shm is looked for.
func MemoryTemp() string { return "" }
