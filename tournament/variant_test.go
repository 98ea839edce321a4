package tournament

import (
	"errors"
	"fmt"
	"testing"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/scoring"
)

// variantClub is club(2 players, 1 round) under the rules name, round 1 paired.
func variantClub(t *testing.T, rules string, policy scoring.TimePolicy) *Tournament {
	t.Helper()
	r, err := engine.ParseRules(rules)
	if err != nil {
		t.Fatal(err)
	}
	tm := club(t, 2, 1)
	tm.Variant, tm.TimeDefault = r, policy
	if _, err := tm.Pair(PairOptions{}); err != nil {
		t.Fatal(err)
	}
	return tm
}

// TestVariantResults: results under other rules, each worked out by hand from
// RULES.md section 2 on the board's squares, and the decision for
// Anti-Othello (a result is recorded as the discs on the board; a side's disc
// score is its opponent's discs, the empty squares to the winner).
func TestVariantResults(t *testing.T) {
	for _, tc := range []struct {
		name, rules string
		policy      scoring.TimePolicy
		in          ResultInput
		want        Result // as recorded
		score       string // as scored (discs-discs), when not as recorded
		err         error
	}{
		// 10x10: 100 squares.
		{"10x10 win", "othello:10", scoring.TimeComplete, ResultInput{Black: 60, White: 40, HasScore: true}, Result{Black: 60, White: 40, Kind: Normal}, "", nil},
		{"10x10 empties to the winner", "othello:10", scoring.TimeComplete, ResultInput{Black: 50, White: 48, HasScore: true}, Result{Black: 52, White: 48, Kind: Normal}, "", nil},
		{"10x10 tie with empties", "othello:10", scoring.TimeComplete, ResultInput{Black: 40, White: 40, HasScore: true}, Result{Black: 50, White: 50, Kind: Normal}, "", nil},
		{"10x10 over 100 squares", "othello:10", scoring.TimeComplete, ResultInput{Black: 60, White: 41, HasScore: true}, Result{}, "", scoring.ErrDiscs},
		{"10x10 time default fixed: 51-49", "othello:10", scoring.TimeFixed, ResultInput{Black: 10, White: 20, HasScore: true, TimeDefault: White}, Result{Black: 51, White: 49, Kind: TimeDefault, Loser: White}, "", nil},
		{"10x10 time default completed, minimal win", "othello:10", scoring.TimeComplete, ResultInput{Black: 70, White: 30, HasScore: true, TimeDefault: Black}, Result{Black: 49, White: 51, Kind: TimeDefault, Loser: Black}, "", nil},
		{"10x10 forfeit: half the squares", "othello:10", scoring.TimeComplete, ResultInput{Forfeit: White}, Result{Black: 50, White: 50, Kind: Forfeit, Loser: White}, "", nil},
		// 6x6: 36 squares.
		{"6x6 win", "othello:6", scoring.TimeComplete, ResultInput{Black: 16, White: 20, HasScore: true}, Result{Black: 16, White: 20, Kind: Normal}, "", nil},
		{"6x6 over 36 squares", "othello:6", scoring.TimeComplete, ResultInput{Black: 20, White: 17, HasScore: true}, Result{}, "", scoring.ErrDiscs},
		// 8Stars: 88 squares.
		{"8stars empties to the winner", "8stars", scoring.TimeComplete, ResultInput{Black: 50, White: 30, HasScore: true}, Result{Black: 58, White: 30, Kind: Normal}, "", nil},
		// Anti-Othello: black has fewer discs and wins; recorded as the
		// opponent's discs, the 4 empty squares to black: 44-20.
		{"anti win with empties", "anti", scoring.TimeComplete, ResultInput{Black: 20, White: 40, HasScore: true}, Result{Black: 20, White: 40, Kind: Normal}, "44-20", nil},
		{"anti loss", "anti", scoring.TimeComplete, ResultInput{Black: 40, White: 24, HasScore: true}, Result{Black: 40, White: 24, Kind: Normal}, "24-40", nil},
		{"anti tie", "anti", scoring.TimeComplete, ResultInput{Black: 30, White: 30, HasScore: true}, Result{Black: 30, White: 30, Kind: Normal}, "32-32", nil},
		// White's flag falls with 40-20 on the board, 4 empty: black wins on
		// time though it has more discs; its score is white's 20 discs plus
		// the 4 empties, 24, raised to the minimal win: 33-31.
		{"anti time default", "anti", scoring.TimeComplete, ResultInput{Black: 40, White: 20, HasScore: true, TimeDefault: White}, Result{Black: 40, White: 20, Kind: TimeDefault, Loser: White}, "33-31", nil},
		// Black's flag falls at 10-50, 4 empty: white wins on time; its
		// score is black's 10 discs plus the 4 empties, 14, raised to 33.
		{"anti time default, winner's count", "anti", scoring.TimeComplete, ResultInput{Black: 10, White: 50, HasScore: true, TimeDefault: Black}, Result{Black: 10, White: 50, Kind: TimeDefault, Loser: Black}, "31-33", nil},
		{"anti+10x10 win", "anti:10", scoring.TimeComplete, ResultInput{Black: 30, White: 70, HasScore: true}, Result{Black: 30, White: 70, Kind: Normal}, "70-30", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tm := variantClub(t, tc.rules, tc.policy)
			_, err := tm.RecordResult(At(1, 1), tc.in, false)
			if !errors.Is(err, tc.err) {
				t.Fatalf("RecordResult: %v, want %v", err, tc.err)
			}
			if err != nil {
				return
			}
			g := tm.Round(1)[0]
			if got := *g.Result; got != tc.want {
				t.Errorf("recorded %+v, want %+v", got, tc.want)
			}
			want := tc.score
			if want == "" {
				want = fmt.Sprintf("%d-%d", tc.want.Black, tc.want.White)
			}
			sr, _ := scoringResult(g)
			if sc, err := scoring.ScoreGame(sr, tm.Rules()); err != nil || fmt.Sprintf("%d-%d", sc.BlackDiscs, sc.WhiteDiscs) != want {
				t.Errorf("scored %v, %v; want %s", sc, err, want)
			}
			if err := tm.Validate(); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestVariantRecordGame: a game otd played under Anti-Othello is recorded by
// its discs on the board. The shortest wipe-out (black 13, white 0, 51 empty)
// is, under Anti-Othello, a win for white, scored 0-64.
func TestVariantRecordGame(t *testing.T) {
	tm := variantClub(t, "anti", scoring.TimeComplete)
	p := playedUnder(t, tm.GameRules(), wipeout, EndNormal)
	if _, err := tm.RecordGame(At(1, 1), p); err != nil {
		t.Fatal(err)
	}
	g := tm.Round(1)[0]
	if got, want := *g.Result, (Result{Black: 13, White: 0, Kind: Normal, Moves: wipeout, End: "normal"}); got != want {
		t.Errorf("recorded %+v, want %+v", got, want)
	}
	sr, _ := scoringResult(g)
	if sc, err := scoring.ScoreGame(sr, tm.Rules()); err != nil || sc.BlackDiscs != 0 || sc.WhiteDiscs != 64 || sc.WhitePoints != scoring.Point {
		t.Errorf("scored %v, %v; want 0-64, a win for white", sc, err)
	}
	// The same moves do not replay on 10x10 (d3 is not next to a disc there).
	tm = variantClub(t, "othello:10", scoring.TimeComplete)
	if _, err := tm.RecordGame(At(1, 1), p); !errors.Is(err, ErrInvalid) {
		t.Errorf("an 8x8 game recorded on 10x10: %v, want ErrInvalid", err)
	}
}

// TestEnginePlays: which protocols play which rules, at registration and when
// the rules change.
func TestEnginePlays(t *testing.T) {
	for _, tc := range []struct {
		rules, engine string
		ok            bool
	}{
		{"othello", "gtp:rhino", true},
		{"othello:10", "gtp:rhino", true},
		{"othello:6", "gtp:rhino", true},
		{"anti", "gtp:rhino", false},
		{"reversi", "gtp:rhino", false},
		{"8stars", "gtp:rhino", false},
		{"othello", "nboard:edax", true},
		{"othello:10", "nboard:edax", false},
		{"anti", "nboard:edax", false},
		{"anti+reversi:10", "builtin:alphabeta:2", true},
		{"8stars", "builtin:random", true},
	} {
		r, err := engine.ParseRules(tc.rules)
		if err != nil {
			t.Fatal(err)
		}
		tm := club(t, 0, 1)
		tm.Variant = r
		_, err = tm.AddPlayer(PlayerInput{Name: "E", Engine: tc.engine})
		if (err == nil) != tc.ok || err != nil && !errors.Is(err, ErrInvalid) {
			t.Errorf("%s under %s: %v, want ok %v", tc.engine, tc.rules, err, tc.ok)
		}
	}
	tm := club(t, 1, 1)
	if _, err := tm.AddPlayer(PlayerInput{Name: "Rhino", Engine: "gtp:rhino"}); err != nil {
		t.Fatal(err)
	}
	s := tm.Settings
	s.Variant = engine.Rules{Size: 8, Winner: engine.FewestDiscs}
	if _, err := tm.ChangeSettings(s); !errors.Is(err, ErrInvalid) {
		t.Errorf("rules changed to anti with a GTP engine: %v, want ErrInvalid", err)
	}
	s.Variant = engine.Rules{Size: 10}
	if _, err := tm.ChangeSettings(s); err != nil || tm.GameRules().Squares() != 100 {
		t.Fatalf("rules changed to 10x10: %v", err)
	}
	if _, err := tm.Pair(PairOptions{}); err != nil {
		t.Fatal(err)
	}
	s.Variant = engine.Othello()
	if _, err := tm.ChangeSettings(s); !errors.Is(err, ErrSettingFixed) {
		t.Errorf("rules changed after round 1: %v, want ErrSettingFixed", err)
	}
}
