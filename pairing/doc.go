// Package pairing pairs the rounds of an Othello tournament: Swiss rounds as
// one minimum-cost perfect matching over all players (Edmonds' weighted
// blossom algorithm, with the cost model of Papp, the FFO's pairing program,
// RULES.md section 4), round robins (Berger tables), a checker for proposed
// pairings and a seeded random-tournament simulator. It uses only the
// standard library and integer costs; given the same input and seed it gives
// the same pairing.
package pairing

import "errors"

// Sentinel errors; the errors returned wrap them (check with errors.Is).
var (
	// ErrInvalidInput reports input that cannot be paired as given (unknown or
	// duplicate players, a forced pair with an absent player, weights out of range).
	ErrInvalidInput = errors.New("invalid input")
	// ErrNoValidPairing reports that no pairing keeps the forced and
	// forbidden pairs. (A second bye and a rematch with the same colours only
	// cost Papp's "infinity": the least bad pairing is made, and says so.)
	ErrNoValidPairing = errors.New("no valid pairing")
	// ErrNoPerfectMatching reports a graph without a perfect matching.
	ErrNoPerfectMatching = errors.New("no perfect matching")
)
