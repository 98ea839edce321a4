//go:build !unix

package app

import "io"

// LockPlay does nothing where there is no flock: two otd playing one
// database's games at once would play them twice (only one recording lands).
func LockPlay(string, string, io.Writer) (func(), error) { return func() {}, nil }

// LockWorker does nothing where there is no flock.
func LockWorker(func(int) string, string, io.Writer) (func(), error) { return func() {}, nil }
