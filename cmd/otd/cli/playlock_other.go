//go:build !unix

package cli

// lockPlay does nothing where there is no flock: two otd playing one
// database's games at once would play them twice (only one recording lands).
func lockPlay(string) (func(), error) { return func() {}, nil }
