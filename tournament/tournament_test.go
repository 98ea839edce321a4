package tournament

import (
	"errors"
	"testing"

	"github.com/otd-project/otd/scoring"
)

// club returns a tournament of n players with ratings 2000, 1990, ...
func club(t *testing.T, n, rounds int) *Tournament {
	t.Helper()
	tm := &Tournament{Settings: DefaultSettings("Club", rounds)}
	for i := 0; i < n; i++ {
		if _, err := tm.AddPlayer(PlayerInput{Name: "P" + string(rune('A'+i)), Rating: 2000 - 10*i}); err != nil {
			t.Fatal(err)
		}
	}
	return tm
}

// finish enters a result for every game of the last round: black wins 40-24.
func finish(t *testing.T, tm *Tournament) {
	t.Helper()
	r := tm.Paired()
	for _, g := range tm.Round(r) {
		if !g.IsBye() {
			if _, err := tm.RecordResult(At(r, g.Table), ResultInput{Black: 40, White: 24, HasScore: true}, false); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestAddPlayer(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   PlayerInput
		want error
	}{
		{"ok", PlayerInput{Name: "  Imre   Leader ", Rating: 2150, Country: "gb"}, nil},
		{"no name", PlayerInput{Name: "  "}, ErrInvalid},
		{"rating", PlayerInput{Name: "A", Rating: -1}, ErrInvalid},
		{"country", PlayerInput{Name: "A", Country: "G1"}, ErrInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tm := club(t, 0, 3)
			c, err := tm.AddPlayer(tc.in)
			if !errors.Is(err, tc.want) {
				t.Fatalf("AddPlayer: %v, want %v", err, tc.want)
			}
			if err != nil {
				return
			}
			if p := c.After.Players[0]; p.Name != "Imre Leader" || p.Country != "GBR" || p.Number != 1 || p.FirstRound != 1 {
				t.Errorf("AddPlayer = %+v", p)
			}
		})
	}
}

func TestLateEntryWithdrawAbsent(t *testing.T) {
	tm := club(t, 4, 3)
	if _, err := tm.Pair(PairOptions{}); err != nil {
		t.Fatal(err)
	}
	late, err := tm.AddPlayer(PlayerInput{Name: "Late"})
	if err != nil || late.After.Players[0].FirstRound != 2 {
		t.Fatalf("late entry: %+v, %v", late, err)
	}
	if _, err := tm.Withdraw(2); err != nil {
		t.Fatal(err)
	}
	if _, err := tm.Withdraw(2); !errors.Is(err, ErrWithdrawn) {
		t.Errorf("second withdrawal: %v", err)
	}
	if _, err := tm.MarkAbsent(3, 1); err == nil {
		t.Error("absent from a paired round: no error")
	}
	if _, err := tm.MarkAbsent(3, 2); err != nil {
		t.Fatal(err)
	}
	if _, err := tm.Pair(PairOptions{}); !errors.Is(err, ErrNotFinished) {
		t.Fatalf("pairing before the results: %v", err)
	}
	finish(t, tm)
	c, err := tm.Pair(PairOptions{})
	if err != nil {
		t.Fatal(err)
	}
	games := c.After.Games
	seen := map[int]bool{}
	for _, g := range games {
		seen[g.Black], seen[g.White] = true, true
	}
	if seen[2] || seen[3] || !seen[5] || !seen[1] || !seen[4] {
		t.Errorf("round 2 pairs %v: want 1, 4 and the late entry 5, not the withdrawn 2 or the absent 3", games)
	}
	if _, err := tm.MarkAbsent(9, 3); !errors.Is(err, ErrNoPlayer) {
		t.Errorf("unknown player: %v", err)
	}
}

func TestPairOverrides(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    PairOptions
		want error
	}{
		{"forced kept", PairOptions{Forced: [][2]int{{4, 1}}}, nil},
		{"self", PairOptions{Forced: [][2]int{{1, 1}}}, ErrBadPairing},
		{"twice", PairOptions{Forced: [][2]int{{1, 2}, {1, 3}}}, ErrBadPairing},
		{"unknown", PairOptions{Forced: [][2]int{{1, 9}}}, ErrNoPlayer},
		{"forced and forbidden", PairOptions{Forced: [][2]int{{1, 2}}, Forbidden: [][2]int{{2, 1}}}, ErrBadPairing},
		{"bye in an even field", PairOptions{Bye: 1}, ErrBadPairing},
		{"manual incomplete", PairOptions{Manual: true, Forced: [][2]int{{1, 2}}}, ErrBadPairing},
		{"manual", PairOptions{Manual: true, Forced: [][2]int{{1, 2}, {3, 4}}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tm := club(t, 4, 3)
			c, err := tm.Pair(tc.o)
			games := c.After.Games
			if !errors.Is(err, tc.want) {
				t.Fatalf("Pair: %v, want %v", err, tc.want)
			}
			if err != nil {
				if tm.Paired() != 0 {
					t.Error("a refused pairing changed the tournament")
				}
				return
			}
			for _, f := range tc.o.Forced {
				found := false
				for _, g := range games {
					found = found || (g.Black == f[0] && g.White == f[1])
				}
				if !found {
					t.Errorf("forced pair %v not in %v", f, games)
				}
			}
		})
	}
}

func TestSecondByeRefused(t *testing.T) {
	tm := club(t, 5, 3)
	c, err := tm.Pair(PairOptions{})
	if err != nil {
		t.Fatal(err)
	}
	games := c.After.Games
	bye := games[len(games)-1]
	if !bye.IsBye() || bye.Black != 5 {
		t.Fatalf("round 1 bye: %+v, want the lowest rated, player 5", bye)
	}
	finish(t, tm)
	if _, err := tm.Pair(PairOptions{Bye: 5}); !errors.Is(err, ErrBadPairing) {
		t.Errorf("a second bye for player 5: %v", err)
	}
}

func TestResults(t *testing.T) {
	tm := club(t, 4, 2)
	tm.Settings.TimeDefault = scoring.TimeComplete
	if _, err := tm.Pair(PairOptions{Forced: [][2]int{{1, 2}, {3, 4}}}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		table   int
		in      ResultInput
		correct bool
		want    string
		err     error
	}{
		{"empties to the winner", 1, ResultInput{Black: 40, White: 22, HasScore: true}, false, "42-22", nil},
		{"second result", 1, ResultInput{Black: 30, White: 34, HasScore: true}, false, "", ErrHasResult},
		{"correction", 1, ResultInput{Black: 30, White: 34, HasScore: true}, true, "30-34", nil},
		{"the same again", 1, ResultInput{Black: 30, White: 34, HasScore: true}, false, "", ErrSameResult},
		{"the same again, as a correction", 1, ResultInput{Black: 30, White: 34, HasScore: true}, true, "", ErrSameResult},
		{"time default completed", 2, ResultInput{Black: 40, White: 20, HasScore: true, TimeDefault: White}, false, "44-20 (white lost on time)", nil},
		{"time default minimal", 2, ResultInput{Black: 20, White: 40, HasScore: true, TimeDefault: White}, true, "33-31 (white lost on time)", nil},
		{"forfeit", 2, ResultInput{Forfeit: Black}, true, "forfeit: black did not play, white wins", nil},
		{"no table", 3, ResultInput{Black: 40, White: 24, HasScore: true}, false, "", ErrNoGame},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := tm.RecordResult(At(1, tc.table), tc.in, tc.correct)
			if !errors.Is(err, tc.err) {
				t.Fatalf("RecordResult: %v, want %v", err, tc.err)
			}
			if err == nil && c.After.Results[0].Result.String() != tc.want {
				t.Errorf("recorded %s, want %s", c.After.Results[0].Result, tc.want)
			}
		})
	}
	rows, err := tm.Standings(1)
	if err != nil {
		t.Fatal(err)
	}
	if rows[0].Player != 4 || rows[0].Points != 2 {
		t.Errorf("leader after round 1: %+v", rows[0])
	}
}

func TestUnpairAndUndoGuard(t *testing.T) {
	tm := club(t, 4, 3)
	if _, err := tm.Pair(PairOptions{}); err != nil {
		t.Fatal(err)
	}
	finish(t, tm)
	if _, err := tm.Unpair(); !errors.Is(err, ErrRoundStarted) {
		t.Errorf("unpair a round with results: %v", err)
	}
	first, err := tm.RecordResult(At(1, 1), ResultInput{Black: 30, White: 34, HasScore: true}, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tm.Pair(PairOptions{}); err != nil {
		t.Fatal(err)
	}
	// Taking a result away from a round that the next is paired on is refused;
	// a correction is put back.
	entered := Change{Action: ActResult, Before: State{Results: []GameResult{{1, 1, nil}}}, After: first.After}
	if _, err := tm.Undo(1, entered); !errors.Is(err, ErrInconsistent) || tm.Games[0].Result == nil {
		t.Errorf("undo a result the next round is paired on: %v (result now %v)", err, tm.Games[0].Result)
	}
	if _, err := tm.Undo(2, first); err != nil || tm.Games[0].Result.String() != "40-24" {
		t.Errorf("undo a correction: %v, result %s", err, tm.Games[0].Result)
	}
	c, err := tm.Unpair()
	if err != nil || c.Before.Games[0].Round != 2 || len(c.Before.Games) != 2 || tm.Paired() != 1 {
		t.Errorf("Unpair = %+v, %v", c, err)
	}
}

// TestRoundRobinCycles: a round robin of 6 players in 10 rounds is a double
// round robin: rounds 6 to 10 are rounds 1 to 5 with the colours swapped,
// and an 11th round is refused as beyond the tournament's rounds.
func TestRoundRobinCycles(t *testing.T) {
	tm := club(t, 6, 10)
	tm.System = RoundRobin
	for r := 1; r <= 10; r++ {
		if _, err := tm.Pair(PairOptions{}); err != nil {
			t.Fatalf("round %d: %v", r, err)
		}
		finish(t, tm)
	}
	for r := 1; r <= 5; r++ {
		first, second := tm.Round(r), tm.Round(r+5)
		if len(first) != 3 || len(second) != 3 {
			t.Fatalf("rounds %d and %d: %d and %d games", r, r+5, len(first), len(second))
		}
		for i, g := range first {
			if h := second[i]; h.Black != g.White || h.White != g.Black {
				t.Errorf("round %d table %d: %d-%d; want %d-%d (round %d swapped)", r+5, i+1, h.Black, h.White, g.White, g.Black, r)
			}
		}
	}
	if _, err := tm.Pair(PairOptions{}); !errors.Is(err, ErrAllPaired) {
		t.Errorf("round 11: %v; want ErrAllPaired", err)
	}
}

// TestNewIDs: the new-player range is FROM-TO or FROM (Papp's
// zone-insertion "FRA" = 50000-59999), from 1, TO not below FROM; it may
// change at any time; a WOF id the director types clears the mark of an id
// new to the rating list, which needs an id.
func TestNewIDs(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want IDRange
		ok   bool
	}{
		{"50000-59999", IDRange{50000, 59999}, true},
		{"50321", IDRange{From: 50321}, true},
		{" 9000 - 9500 ", IDRange{9000, 9500}, true},
		{"", IDRange{}, true},
		{"59999-50000", IDRange{}, false},
		{"0-10", IDRange{}, false},
		{"-5", IDRange{}, false},
		{"50000-", IDRange{}, false},
		{"FRA", IDRange{}, false},
		{"1-100000000", IDRange{}, false},
	} {
		r, err := ParseIDRange(tc.in)
		if r != tc.want || (err == nil) != tc.ok || err != nil && !errors.Is(err, ErrInvalid) {
			t.Errorf("ParseIDRange(%q) = %v, %v; want %v, ok %v", tc.in, r, err, tc.want, tc.ok)
		}
		if back, err := ParseIDRange(r.String()); err != nil || back != r {
			t.Errorf("ParseIDRange(%q) = %v, %v; want %v", r.String(), back, err, r)
		}
	}
	if r := (IDRange{50000, 59999}); !r.Contains(50000) || !r.Contains(59999) || r.Contains(60000) || r.Contains(49999) || (IDRange{}).Contains(1) || !(IDRange{From: 9000}).Contains(1<<30) {
		t.Error("Contains: the range's ends are in it, nothing outside, the zero range holds nothing")
	}
	tm := club(t, 2, 3)
	tm.Players[0].WOFID, tm.Players[0].NewID = 50131, true
	if err := tm.Validate(); err != nil {
		t.Fatal(err)
	}
	s := tm.Settings
	s.NewIDs = IDRange{From: 9, To: 1}
	if _, err := tm.ChangeSettings(s); !errors.Is(err, ErrInvalid) {
		t.Errorf("a range ending before it starts: %v", err)
	}
	if _, err := tm.Pair(PairOptions{}); err != nil {
		t.Fatal(err)
	}
	s.NewIDs = IDRange{From: 50132, To: 59999}
	if _, err := tm.ChangeSettings(s); err != nil || tm.NewIDs != s.NewIDs {
		t.Errorf("the range after round 1 is paired: %v", err)
	}
	rating, id := 1800, 50131
	if _, err := tm.EditPlayer(1, PlayerEdit{Rating: &rating, WOFID: &id}); err != nil || !tm.Players[0].NewID {
		t.Errorf("the same id: %+v, %v; want it still new", tm.Players[0], err)
	}
	id = 50200
	if _, err := tm.EditPlayer(1, PlayerEdit{WOFID: &id}); err != nil || tm.Players[0].NewID {
		t.Errorf("an id typed: %+v, %v; want it the list's, not new", tm.Players[0], err)
	}
	tm.Players[1].NewID = true
	if err := tm.Validate(); !errors.Is(err, ErrInconsistent) {
		t.Errorf("new to the list without an id: %v", err)
	}
}
