package scoring_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/otd-project/otd/scoring"
)

func game(round, black, white, bd, wd int) scoring.Game {
	return scoring.Game{Round: round, Black: black, White: white, Result: scoring.Result{BlackDiscs: bd, WhiteDiscs: wd}}
}

func bye(round, p int) scoring.Game {
	return scoring.Game{Round: round, Black: p, Result: scoring.Result{Kind: scoring.Bye}}
}

func players(ids ...int) []scoring.Player {
	ps := make([]scoring.Player, len(ids))
	for i, id := range ids {
		ps[i] = scoring.Player{ID: id}
	}
	return ps
}

// line gives a row's figures, "player rank points bq discs".
func line(r scoring.Row) string {
	return fmt.Sprintf("%d #%d %v %v %d", r.Player, r.Rank, r.Points, r.BQ, r.Discs)
}

func standings(t *testing.T, ev scoring.Event) []string {
	t.Helper()
	rows, err := ev.Standings()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range rows {
		out = append(out, line(r))
	}
	return out
}

func checkLines(t *testing.T, got, want []string) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("standings:\n got %q\nwant %q", got, want)
	}
}

// The worked example of RULES.md section 3 (from Papp's manual, c = 6): A
// beats B 33-31 in round 1 and has the bye in round 2; B beats C in round 2.
// BQ(A) = 33 + 32 + 6 x (1 + 2) = 83.
func TestWorkedExample(t *testing.T) {
	const A, B, C = 1, 2, 3
	games := []scoring.Game{game(1, A, B, 33, 31), bye(1, C), game(2, B, C, 40, 24), bye(2, A)}
	want := []string{"1 #1 2 83 65", "2 #2 1 89 71", "3 #3 1 68 56"}
	t.Run("fixed 6", func(t *testing.T) {
		ev := scoring.Event{Rounds: 2, Rules: scoring.Rules{BQ: scoring.BQRule{Kind: scoring.Fixed, C: 6}}, Players: players(A, B, C), Games: games}
		checkLines(t, standings(t, ev), want)
	})
	t.Run("wof, 8 rounds, after 2", func(t *testing.T) {
		ev := scoring.Event{Rounds: 8, Rules: scoring.Rules{BQ: scoring.BQRule{Kind: scoring.WOF}}, Players: players(A, B, C), Games: games}
		checkLines(t, standings(t, ev), want)
	})
}

// TestBQKinds: one event, eight rounds planned, three played, with a late
// entry (5, from round 2), a withdrawal (4, after round 2), an absence (3, in
// round 3) and byes, under each BQ rule. Figures computed by hand:
//
//	round 1: 1-2 40-24, 3-4 30-34
//	round 2: 1-4 50-14, 2-5 32-32, 3 bye
//	round 3: 5-1 24-40, 2 bye (3 absent, 4 withdrawn)
//
// Points: 1 3, 2 1.5, 3 1, 4 1, 5 0.5.
// nearest, c = 8: 1: 40+8x1.5 + (32+8x3) + 40+8x0.5 = 152; 2: 24+24 + 32+4 + 32+12 = 128;
// 3: (32+8) x 3 = 120; 5: 32+4 + 32+12 + 24+24 = 128; 4 withdrew after
// round 2 and keeps the BQ of round 2 (frozen, RULES.md section 3, under
// nearest, exact and a fixed number): 34+8x1 + 14+8x2 = 72, not the 80
// that 1's final 3 points would give.
// exact, c = 8 (64/8): as nearest.
// wof, c = 6: 1: 49+50+43 = 142; 2: 42+35+41 = 118; 3: 38x3 = 114;
// 4: (32+6, 3 is absent now) + 14+18 + (32+6, missed) = 108; 5: 35+41+42 = 118.
func TestBQKinds(t *testing.T) {
	ev := scoring.Event{Rounds: 8, Players: players(5, 4, 3, 2, 1), Games: []scoring.Game{
		game(1, 1, 2, 40, 24), game(1, 3, 4, 30, 34),
		game(2, 1, 4, 50, 14), game(2, 2, 5, 32, 32), bye(2, 3),
		game(3, 5, 1, 24, 40), bye(3, 2),
	}}
	ev.Players[1].WithdrawnAfter = 2
	for _, tt := range []struct {
		rule string
		want []string
	}{
		{"nearest", []string{"1 #1 3 152 130", "2 #2 1.5 128 88", "3 #3 1 120 62", "4 #4 1 72 48", "5 #5 0.5 128 56"}},
		{"8", []string{"1 #1 3 152 130", "2 #2 1.5 128 88", "3 #3 1 120 62", "4 #4 1 72 48", "5 #5 0.5 128 56"}},
		{"exact", []string{"1 #1 3 152 130", "2 #2 1.5 128 88", "3 #3 1 120 62", "4 #4 1 72 48", "5 #5 0.5 128 56"}},
		{"wof", []string{"1 #1 3 142 130", "2 #2 1.5 118 88", "3 #3 1 114 62", "4 #4 1 108 48", "5 #5 0.5 118 56"}},
	} {
		t.Run(tt.rule, func(t *testing.T) {
			ev := ev
			var err error
			if ev.Rules.BQ, err = scoring.ParseBQRule(tt.rule); err != nil {
				t.Fatal(err)
			}
			checkLines(t, standings(t, ev), tt.want)
		})
	}

	rows, err := ev.Standings()
	if err != nil {
		t.Fatal(err)
	}
	byID := map[int]scoring.Row{}
	for _, r := range rows {
		byID[r.Player] = r
	}
	if !byID[4].Withdrawn || byID[3].Withdrawn {
		t.Errorf("withdrawn: 4 %v, 3 %v", byID[4].Withdrawn, byID[3].Withdrawn)
	}
	if g := byID[1].Games; g != 3 {
		t.Errorf("player 1: %d games, want 3", g)
	}
	got := fmt.Sprint(byID[3].Rounds)
	want := fmt.Sprint([]scoring.Cell{
		{Kind: scoring.Normal, Opponent: 4, Colour: scoring.Black, Discs: 30, OpponentDiscs: 34},
		{Kind: scoring.Bye, Points: scoring.Point, Discs: 32, OpponentDiscs: 32},
		{Kind: scoring.Missed},
	})
	if got != want {
		t.Errorf("crosstable of 3:\n got %s\nwant %s", got, want)
	}
	if c := byID[5].Rounds[2]; c.Opponent != 1 || c.Colour != scoring.Black || c.Points != 0 {
		t.Errorf("crosstable of 5, round 3: %+v", c)
	}
	if c := byID[1].Rounds[2]; c.Opponent != 5 || c.Colour != scoring.White || c.Points != scoring.Point || c.Discs != 40 {
		t.Errorf("crosstable of 1, round 3: %+v", c)
	}

	// After round 2, nobody has withdrawn yet and round 3 is not counted.
	rows, err = ev.AfterRound(2)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.Withdrawn || len(r.Rounds) != 2 {
			t.Errorf("after round 2: %+v", r)
		}
		if r.Player == 4 && (r.BQ.String() != "72" || r.Points != 2) {
			t.Errorf("after round 2: %s", line(r))
		}
	}
	// Asking beyond the last round played gives the same as Standings.
	final, _ := ev.Standings()
	if later, err := ev.AfterRound(8); err != nil || fmt.Sprint(later) != fmt.Sprint(final) {
		t.Errorf("after round 8: %v", err)
	}
}

// TestExactFraction: with c = 64/7 a BQ is a fraction; it rounds to the
// nearest integer and compares exactly.
func TestExactFraction(t *testing.T) {
	ev := scoring.Event{Rounds: 7, Rules: scoring.Rules{BQ: scoring.BQRule{Kind: scoring.Exact}}, Players: players(1, 2),
		Games: []scoring.Game{game(1, 1, 2, 33, 31)}}
	rows, err := ev.Standings()
	if err != nil {
		t.Fatal(err)
	}
	// 1: 33 + 64/7 x 0 = 33; 2: 31 + 64/7 x 1 = 40 1/7.
	if n, d := rows[1].BQ.Rat(); n != 281 || d != 7 || rows[1].BQ.Round() != 40 || rows[1].BQ.String() != "40.14" {
		t.Errorf("BQ of 2: %d/%d, %d, %v", n, d, rows[1].BQ.Round(), rows[1].BQ)
	}
	if rows[0].BQ.Cmp(rows[1].BQ) != -1 || rows[1].BQ.Cmp(rows[0].BQ) != 1 || rows[0].BQ.Cmp(rows[0].BQ) != 0 {
		t.Error("Cmp")
	}
}

// TestForfeit: a forfeit is a win for the present player that counts like a
// bye (32 + c x own points in the BQ, the bye's discs); the absent player
// scores nothing and the round counts for them like a missed round.
func TestForfeit(t *testing.T) {
	const A, B, C, D = 1, 2, 3, 4
	forfeit := scoring.Game{Round: 1, Black: A, White: B, Result: scoring.Result{Kind: scoring.Forfeit, Outcome: scoring.BlackWins}}
	games := []scoring.Game{forfeit, game(1, C, D, 24, 40)}
	// nearest, 2 rounds: c = 32. A: 32+32x1; B: 32+32x0; C: 24+32x1; D: 40+32x0.
	ev := scoring.Event{Rounds: 2, Players: players(A, B, C, D), Games: games}
	checkLines(t, standings(t, ev), []string{"1 #1 1 64 32", "4 #2 1 40 40", "3 #3 0 56 24", "2 #4 0 32 32"})
	ev.Rules.ByeDiscs = 40
	rows, err := ev.Standings()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"1 #1 1 64 40 g0 w1 d16", "4 #2 1 40 40 g1 w1 d16", "3 #3 0 56 24 g1 w0 d-16", "2 #4 0 32 24 g0 w0 d-16"}
	for i, r := range rows {
		if got := fmt.Sprintf("%s g%d w%v d%d", line(r), r.Games, r.Wins, r.DiscDiff); got != want[i] {
			t.Errorf("got %q, want %q", got, want[i])
		}
	}
	ev.Rules = scoring.Rules{BQ: scoring.BQRule{Kind: scoring.Fixed, C: 6}}
	checkLines(t, standings(t, ev), []string{"4 #1 1 40 40", "1 #2 1 38 32", "2 #3 0 32 32", "3 #4 0 30 24"})

	// Under wof, an opponent who lost the last round by forfeit is absent now:
	// A's game against B counts 32 + 6 x 2 = 44, and 33 + 6 x 1 for C: 83.
	// Under nearest (c = 8): 40 + 8 x 0 + 33 + 8 x 1 = 81.
	ev = scoring.Event{Rounds: 8, Rules: scoring.Rules{BQ: scoring.BQRule{Kind: scoring.WOF}}, Players: players(A, B, C, D), Games: []scoring.Game{
		game(1, A, B, 40, 24), game(1, C, D, 40, 24),
		{Round: 2, Black: B, White: D, Result: scoring.Result{Kind: scoring.Forfeit, Outcome: scoring.WhiteWins}}, game(2, A, C, 33, 31),
	}}
	for rule, want := range map[string]string{"wof": "83", "nearest": "81"} {
		ev.Rules.BQ, _ = scoring.ParseBQRule(rule)
		if rows, err := ev.Standings(); err != nil || rows[0].Player != A || rows[0].BQ.String() != want {
			t.Errorf("%s: %s, %v; want BQ %s", rule, line(rows[0]), err, want)
		}
	}
}

func TestTieBreaks(t *testing.T) {
	const A, B, C, D = 1, 2, 3, 4
	// A 2 points, B 2, C 1, D 1, with equal BQs (c = 21) and discs; A beat B, C beat D.
	games := []scoring.Game{
		game(1, A, B, 40, 24), game(1, C, D, 40, 24),
		game(2, A, C, 40, 24), game(2, B, D, 40, 24),
		game(3, B, C, 40, 24), game(3, D, A, 40, 24),
	}
	// A cycle: A beats B, B beats C, C beats A, each has a bye.
	cycle := []scoring.Game{
		game(1, A, B, 40, 24), bye(1, C),
		game(2, B, C, 40, 24), bye(2, A),
		game(3, C, A, 40, 24), bye(3, B),
	}
	four, three := players(B, A, D, C), players(B, A, C) // the input order decides nothing but equal ranks
	for _, tt := range []struct {
		name, chain string
		players     []scoring.Player
		games       []scoring.Game
		rounds      int
		want        string
	}{
		{"equal ranks", "points", four, games, 3, "[2 #1 1 #1 4 #3 3 #3]"},
		{"h2h", "points,h2h", four, games, 3, "[1 #1 2 #2 3 #3 4 #4]"},
		{"default chain: points, bq, discs, no h2h (RULES.md section 3)", "", four, games, 3, "[2 #1 1 #1 4 #3 3 #3]"},
		{"h2h of a round robin", "h2h", four, games, 3, "[2 #1 1 #1 4 #3 3 #3]"},
		{"h2h of a cycle", "points,h2h", three, cycle, 3, "[2 #1 1 #1 3 #1]"},
		{"h2h of players who have not all met", "points,h2h", four, games[:2], 1, "[1 #1 3 #1 2 #3 4 #3]"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var tbs scoring.TieBreaks
			if tt.chain != "" {
				var err error
				if tbs, err = scoring.ParseTieBreaks(tt.chain); err != nil {
					t.Fatal(err)
				}
			}
			ev := scoring.Event{Rounds: tt.rounds, Rules: scoring.Rules{TieBreaks: tbs}, Players: tt.players, Games: tt.games}
			rows, err := ev.Standings()
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range rows {
				got = append(got, fmt.Sprintf("%d #%d", r.Player, r.Rank))
			}
			if s := fmt.Sprint(got); s != tt.want {
				t.Errorf("got %s, want %s", s, tt.want)
			}
		})
	}
}

// TestJapanese: wins (a half-point bye is still a win), then the sum of disc
// differences, then head-to-head.
func TestJapanese(t *testing.T) {
	const A, B, C = 1, 2, 3
	japanese, _ := scoring.ParseTieBreaks("japanese")
	ev := scoring.Event{Rounds: 2, Rules: scoring.Rules{ByePoints: scoring.Half}, Players: players(A, B, C), Games: []scoring.Game{
		game(1, A, B, 40, 24), bye(1, C),
		game(2, B, C, 33, 31), bye(2, A),
	}}
	// Points: A 1.5, B 1, C 0.5. Wins: A 2, B 1, C 1. Differences: B -16+2 = -14, C 0-2 = -2.
	for _, tt := range []struct {
		chain scoring.TieBreaks
		want  string
	}{{nil, "[1 2 3]"}, {japanese, "[1 3 2]"}} {
		ev.Rules.TieBreaks = tt.chain
		rows, err := ev.Standings()
		if err != nil {
			t.Fatal(err)
		}
		var got []int
		for _, r := range rows {
			got = append(got, r.Player)
		}
		if fmt.Sprint(got) != tt.want {
			t.Errorf("%v: %v, want %s", tt.chain, got, tt.want)
		}
	}
}

func TestEventErrors(t *testing.T) {
	ok := func() scoring.Event {
		return scoring.Event{Rounds: 3, Players: players(1, 2, 3, 4), Games: []scoring.Game{game(1, 1, 2, 33, 31), game(1, 3, 4, 33, 31)}}
	}
	for _, tt := range []struct {
		name   string
		change func(*scoring.Event)
		err    error
	}{
		{"no rounds", func(e *scoring.Event) { e.Rounds = 0 }, scoring.ErrRound},
		{"too many rounds", func(e *scoring.Event) { e.Rounds = scoring.MaxRounds + 1 }, scoring.ErrRound},
		{"bad rules", func(e *scoring.Event) { e.Rules.ByeDiscs = 1 }, scoring.ErrOption},
		{"player twice", func(e *scoring.Event) { e.Players[1].ID = 1 }, scoring.ErrPlayer},
		{"negative withdrawal", func(e *scoring.Event) { e.Players[1].WithdrawnAfter = -1 }, scoring.ErrRound},
		{"withdrawal after the end", func(e *scoring.Event) { e.Players[1].WithdrawnAfter = 4 }, scoring.ErrRound},
		{"round 0", func(e *scoring.Event) { e.Games[0].Round = 0 }, scoring.ErrRound},
		{"round after the end", func(e *scoring.Event) { e.Games[0].Round = 4 }, scoring.ErrRound},
		{"unknown black", func(e *scoring.Event) { e.Games[0].Black = 9 }, scoring.ErrPlayer},
		{"unknown white", func(e *scoring.Event) { e.Games[0].White = 9 }, scoring.ErrPlayer},
		{"unknown bye", func(e *scoring.Event) { e.Games = append(e.Games, bye(2, 9)) }, scoring.ErrPlayer},
		{"against oneself", func(e *scoring.Event) { e.Games[0].White = 1 }, scoring.ErrPlayer},
		{"two games in a round", func(e *scoring.Event) { e.Games = append(e.Games, bye(1, 4)) }, scoring.ErrRound},
		{"a game after withdrawing", func(e *scoring.Event) { e.Players[0].WithdrawnAfter = 1; e.Games = append(e.Games, bye(2, 1)) }, scoring.ErrRound},
		{"bad result", func(e *scoring.Event) { e.Games[0].BlackDiscs = 65 }, scoring.ErrDiscs},
		{"missed is no result", func(e *scoring.Event) { e.Games[0].Kind = scoring.Missed }, scoring.ErrKind},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ev := ok()
			if _, err := ev.Standings(); err != nil {
				t.Fatal(err)
			}
			tt.change(&ev)
			if _, err := ev.Standings(); !errors.Is(err, tt.err) {
				t.Errorf("Standings: err = %v, want %v", err, tt.err)
			}
			if _, err := ev.AfterRound(1); !errors.Is(err, tt.err) {
				t.Errorf("AfterRound: err = %v, want %v", err, tt.err)
			}
		})
	}
	for _, r := range []int{-1, 4} {
		if _, err := ok().AfterRound(r); !errors.Is(err, scoring.ErrRound) {
			t.Errorf("AfterRound(%d): %v", r, err)
		}
	}
}

func TestEmptyEvent(t *testing.T) {
	ev := scoring.Event{Rounds: 7, Players: players(1, 2)}
	checkLines(t, standings(t, ev), []string{"1 #1 0 0 0", "2 #1 0 0 0"})
	rows, err := ev.AfterRound(0)
	if err != nil || len(rows) != 2 || len(rows[0].Rounds) != 0 {
		t.Errorf("AfterRound(0): %v, %v", rows, err)
	}
}

func TestJSON(t *testing.T) {
	ev := scoring.Event{Rounds: 7, Rules: scoring.Rules{BQ: scoring.BQRule{Kind: scoring.Exact}}, Players: players(1, 2, 3),
		Games: []scoring.Game{game(1, 1, 2, 30, 30), bye(1, 3)}}
	rows, err := ev.Standings()
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(rows[2])
	if err != nil {
		t.Fatal(err)
	}
	want := `{"Rank":2,"Player":2,"Points":0.5,"BQ":36.57,"Discs":32,"Wins":0.5,"DiscDiff":0,"Games":1,"NoDiscs":0,"Withdrawn":false,` +
		`"Rounds":[{"Kind":"normal","Opponent":1,"Colour":"white","Points":0.5,"Discs":32,"OpponentDiscs":32}]}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	var h scoring.HalfPoints
	if err := json.Unmarshal([]byte("3.5"), &h); err != nil || h != 7 {
		t.Errorf("Unmarshal 3.5: %v, %v", h, err)
	}
	if s := (scoring.Rules{}).String(); s != "bq=nearest time-default=complete bye-points=1 bye-discs=32 tiebreaks=points,bq,discs" {
		t.Errorf("Rules.String = %q", s)
	}
}
