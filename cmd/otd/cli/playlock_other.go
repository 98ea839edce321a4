//go:build !unix

package cli

import "io"

// lockPlay does nothing where there is no flock: two otd playing one
// database's games at once would play them twice (only one recording lands).
func lockPlay(string, string, io.Writer) (func(), error) { return func() {}, nil }

// lockWorker does nothing where there is no flock.
func lockWorker(string, io.Writer) (func(), error) { return func() {}, nil }
