package rating_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/otd-project/otd/rating"
)

var listDate = time.Date(2025, 1, 15, 0, 0, 0, 0, time.UTC)

// monthsAgo is the list date this many whole months before, the same day of
// the month (15: every month has one).
func monthsAgo(m int) time.Time { return listDate.AddDate(0, -m, 0) }

// points is RULES.md's scale: 200 rating points for odds of 3 to 1.
var points = 200 / math.Log(3)

func find(t *testing.T, l *rating.List, id int) rating.Player {
	t.Helper()
	p, ok := l.Player(id)
	if !ok {
		t.Fatalf("player %d not in the list", id)
	}
	return p
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// games plays wins of a over b, then draws, then losses, all at date.
func games(a, b, wins, draws, losses int, date time.Time) []rating.Game {
	var gs []rating.Game
	for range wins {
		gs = append(gs, rating.Game{A: a, B: b, Result: rating.Win, Date: date})
	}
	for range draws {
		gs = append(gs, rating.Game{A: b, B: a, Result: rating.Draw, Date: date})
	}
	for range losses {
		gs = append(gs, rating.Game{A: b, B: a, Result: rating.Win, Date: date})
	}
	return gs
}

// TestHeadToHead is RULES.md's check: a 3-1 head-to-head at equal weights
// gives 1900 and 1700. The fit is tested alone by allowing parts of 2
// (Options.MinPart); the part rule of 10, below and in TestUnrated, keeps the
// same two players off the WOF's list. Expected ratings by hand: a's odds
// are a's units over b's, e^(ra-rb), and the mean, each player counted once a
// game, is 1800.
func TestHeadToHead(t *testing.T) {
	old := monthsAgo(40) // weight 1
	tests := []struct {
		name   string
		games  []rating.Game
		a, b   float64
		uncert float64 // by hand: 200/ln 3 / sqrt(sum of w/150 p (1-p))
	}{
		{"3-1", games(1, 2, 3, 0, 1, listDate), 1900, 1700, points / math.Sqrt(4*3.0/16)},
		{"2 wins 2 draws: 6 units to 2", games(1, 2, 2, 2, 0, listDate), 1900, 1700, points / math.Sqrt(4*3.0/16)},
		{"3-1 long ago", games(1, 2, 3, 0, 1, old), 1900, 1700, points / math.Sqrt(4*3.0/16/150)},
		{"9-1: odds of 9, 400 points", games(1, 2, 9, 0, 1, listDate), 2000, 1600, points / math.Sqrt(10*9.0/100)},
		{"1-1", games(1, 2, 1, 0, 1, listDate), 1800, 1800, points / math.Sqrt(2*0.25)},
		// 3 recent wins (weight 150) against 1 recent and 3 old losses
		// (weight 1): units 900 to 306; 7 games each.
		{"weighted", append(games(1, 2, 3, 0, 1, listDate), games(1, 2, 0, 0, 3, old)...),
			1800 + math.Log(900.0/306)/2*points, 1800 - math.Log(900.0/306)/2*points,
			points / math.Sqrt((4+3.0/150)*(900.0/1206)*(306.0/1206))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := rating.Compute(tt.games, listDate, rating.Options{MinPart: 2})
			if err != nil {
				t.Fatal(err)
			}
			a, b := find(t, l, 1), find(t, l, 2)
			if !a.Rated || !b.Rated || !near(a.Rating, tt.a, 1e-6) || !near(b.Rating, tt.b, 1e-6) {
				t.Errorf("ratings %v %.6f, %v %.6f; want %.6f, %.6f", a.Rated, a.Rating, b.Rated, b.Rating, tt.a, tt.b)
			}
			for _, p := range []rating.Player{a, b} {
				if !near(p.Uncertainty, tt.uncert, 1e-6) {
					t.Errorf("player %d: uncertainty %.6f, want %.6f", p.ID, p.Uncertainty, tt.uncert)
				}
				if p.Official != (p.Listed && tt.uncert < 200) {
					t.Errorf("player %d: official %v with uncertainty %.1f", p.ID, p.Official, tt.uncert)
				}
			}
			// The WOF's rule: a part of 2 is not rated.
			l, err = rating.Compute(tt.games, listDate, rating.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if p := find(t, l, 1); p.Rated || p.Missing != rating.NoLink || !strings.HasPrefix(p.Why, "in a linked part of 2 players (10 needed): ") {
				t.Errorf("under the rule of 10: %+v", p)
			}
		})
	}
}

// TestPartsCentredApart: two parts that never met are each centred at 1800.
func TestPartsCentredApart(t *testing.T) {
	gs := append(games(1, 2, 3, 0, 1, listDate), games(3, 4, 1, 0, 3, monthsAgo(20))...)
	l, err := rating.Compute(gs, listDate, rating.Options{MinPart: 2})
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[int]float64{1: 1900, 2: 1700, 3: 1700, 4: 1900} {
		if p := find(t, l, id); !near(p.Rating, want, 1e-6) {
			t.Errorf("player %d: %.6f, want %.0f", id, p.Rating, want)
		}
	}
	if len(l.Parts) != 2 || l.Parts[0].Size != 2 || l.Parts[0].Games != 4 || find(t, l, 1).Part != 1 || find(t, l, 3).Part != 2 {
		t.Errorf("parts %+v", l.Parts)
	}
}

// cycle is a part of n players, first to first+n-1, each beating the next
// and the last the first, at date: strongly connected, all rated 1800.
func cycle(first, n int, date time.Time) []rating.Game {
	var gs []rating.Game
	for i := range n {
		gs = append(gs, rating.Game{A: first + i, B: first + (i+1)%n, Result: rating.Win, Date: date})
	}
	return gs
}

// TestUnrated: a player outside every linked part of 10 is not rated and
// says what they lack.
func TestUnrated(t *testing.T) {
	d := listDate
	gs := cycle(100, 10, d)                                                  // part 1: 100-109
	gs = append(gs, cycle(200, 10, d)...)                                    // part 2: 200-209
	gs = append(gs, cycle(300, 9, d)...)                                     // 9 players: not rated
	gs = append(gs, rating.Game{A: 1, B: 100, Result: rating.Loss, Date: d}) // 1 lost to a rated player
	gs = append(gs, rating.Game{A: 2, B: 101, Result: rating.Win, Date: d})  // 2 beat one
	gs = append(gs, rating.Game{A: 3, B: 1, Result: rating.Loss, Date: d})   // 3 lost to 1, who lost to one
	gs = append(gs, games(4, 5, 1, 0, 1, d)...)                              // 4 and 5: a part of 2 alone
	gs = append(gs, rating.Game{A: 6, B: 102, Result: rating.Win, Date: d})  // 6 beat part 1
	gs = append(gs, rating.Game{A: 6, B: 202, Result: rating.Loss, Date: d}) // and lost to part 2
	l, err := rating.Compute(gs, listDate, rating.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		id      int
		missing rating.Missing
		part    int // players in their part
	}{
		{1, rating.NoWin, 1},
		{2, rating.NoLoss, 1},
		{3, rating.NoWin, 1},
		{4, rating.NoLink, 2},
		{300, rating.NoLink, 9},
		{6, rating.Between, 1},
	} {
		p := find(t, l, tt.id)
		if p.Rated || p.Listed || p.Missing != tt.missing || l.Parts[p.Part-1].Size != tt.part {
			t.Errorf("player %d: rated %v, missing %v, part of %d; want missing %v, part of %d", tt.id, p.Rated, p.Missing, l.Parts[p.Part-1].Size, tt.missing, tt.part)
		}
		if !strings.Contains(p.Why, tt.missing.String()) || !strings.Contains(p.Why, "(10 needed)") {
			t.Errorf("player %d: why %q", tt.id, p.Why)
		}
	}
	if p := find(t, l, 1); p.Why != "in a linked part of 1 player (10 needed): no win or draw against a rated player, nor against anyone who beat one" {
		t.Errorf("why %q", p.Why)
	}
	for _, id := range []int{100, 109, 200, 209} {
		if p := find(t, l, id); !p.Rated || !near(p.Rating, 1800, 1e-6) || p.Missing != 0 || p.Why != "" {
			t.Errorf("player %d: %+v", id, p)
		}
	}
	// A tenth player beaten by one of the nine and beating another joins them.
	gs = append(gs, rating.Game{A: 300, B: 309, Result: rating.Win, Date: d}, rating.Game{A: 309, B: 301, Result: rating.Win, Date: d})
	l, err = rating.Compute(gs, listDate, rating.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p := find(t, l, 309); !p.Rated || l.Parts[p.Part-1].Size != 10 {
		t.Errorf("the tenth player: %+v", p)
	}
	// Draws link both ways: 1 drawing a rated player joins their part.
	gs = append(gs, rating.Game{A: 1, B: 105, Result: rating.Draw, Date: d})
	if l, err = rating.Compute(gs, listDate, rating.Options{}); err != nil {
		t.Fatal(err)
	}
	if p := find(t, l, 1); !p.Rated || p.Part != find(t, l, 100).Part {
		t.Errorf("after a draw: %+v", p)
	}
}

// TestWeights: a tournament's age in whole months and its weight, at the
// boundaries of RULES.md section 8.
func TestWeights(t *testing.T) {
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }
	tests := []struct {
		tournament, at time.Time
		months, weight int
	}{
		{day(2024, 1, 15), day(2024, 1, 15), 0, 150},
		{day(2024, 1, 15), day(2024, 7, 31), 6, 150},
		{day(2024, 1, 31), day(2024, 8, 1), 7, 100}, // the days aside: 7 calendar months
		{day(2024, 1, 1), day(2024, 7, 31), 6, 150},
		{day(2024, 1, 1), day(2024, 8, 1), 7, 100},
		{day(2023, 1, 31), day(2024, 2, 29), 13, 100},
		{day(2023, 1, 31), day(2024, 3, 1), 14, 60},
		{day(2022, 1, 31), day(2024, 2, 29), 25, 60},
		{day(2022, 1, 31), day(2024, 3, 1), 26, 30},
		{day(2021, 1, 31), day(2024, 2, 29), 37, 30},
		{day(2021, 1, 31), day(2024, 3, 1), 38, 1},
		{day(1977, 6, 1), day(2025, 1, 1), 571, 1},
		{day(2023, 12, 31), day(2024, 6, 1), 6, 150},
		{day(2023, 12, 31), day(2024, 7, 1), 7, 100},
		{day(2025, 1, 2), day(2025, 1, 1), 0, 150}, // later in the month of the list
		{day(2025, 2, 1), day(2025, 1, 31), -1, 150},
		// The time of day and the location do not count: the calendar days do.
		{time.Date(2024, 1, 31, 23, 59, 0, 0, time.FixedZone("JST", 9*3600)), day(2024, 8, 1), 7, 100},
	}
	for _, tt := range tests {
		m := rating.Age(tt.tournament, tt.at)
		if m != tt.months || rating.Weight(m) != tt.weight {
			t.Errorf("%s at %s: %d months, weight %d; want %d, %d", tt.tournament.Format(time.DateOnly), tt.at.Format(time.DateOnly), m, rating.Weight(m), tt.months, tt.weight)
		}
	}
	// The list uses them: a player's games weighted, relative to a recent one.
	var gs []rating.Game
	for i, m := range []int{0, 6, 7, 13, 14, 25, 26, 37, 38, 100} {
		gs = append(gs, rating.Game{A: 1, B: 10 + i, Result: rating.Win, Date: monthsAgo(m)})
	}
	l, err := rating.Compute(gs, listDate, rating.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := (150 + 150 + 100 + 100 + 60 + 60 + 30 + 30 + 1 + 1) / 150.0
	if p := find(t, l, 1); p.Games != 10 || !near(p.Weighted, want, 1e-12) || !p.Active || !p.Last.Equal(listDate) {
		t.Errorf("%+v; want 10 games weighted %.4f", p, want)
	}
	if p := find(t, l, 18); p.Active || p.Weighted != 1.0/150 {
		t.Errorf("a player of a tournament 38 months old: %+v", p)
	}
}

// TestListed: listed needs a tournament under 38 months old; official an
// uncertainty under 200; later games do not count.
func TestListed(t *testing.T) {
	// A part of 10 with many games, so that its players are official; 1 and 2
	// joined it by a draw each, 1 at 37 months (the last day of December
	// 2021, for a list of January 2025) and 2 at 38 (the last of November).
	var gs []rating.Game
	for range 4 {
		gs = append(gs, cycle(100, 10, monthsAgo(40))...)
		gs = append(gs, cycle(100, 10, monthsAgo(1))...)
	}
	gs = append(gs, rating.Game{A: 1, B: 100, Result: rating.Draw, Date: time.Date(2021, 12, 31, 0, 0, 0, 0, time.UTC)})
	gs = append(gs, rating.Game{A: 2, B: 100, Result: rating.Draw, Date: time.Date(2021, 11, 30, 0, 0, 0, 0, time.UTC)})
	later := rating.Game{A: 3, B: 100, Result: rating.Draw, Date: listDate.AddDate(0, 0, 1)}
	gs = append(gs, later)
	l, err := rating.Compute(gs, listDate, rating.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := l.Player(3); ok || l.Games != len(gs)-1 {
		t.Errorf("a game after the list date counted: %d games", l.Games)
	}
	p1, p2, p100 := find(t, l, 1), find(t, l, 2), find(t, l, 100)
	if !p1.Rated || !p1.Listed || !p1.Active || p1.Official {
		t.Errorf("37 months, one game: %+v", p1)
	}
	if !p2.Rated || p2.Listed || p2.Active || p2.Official {
		t.Errorf("38 months: %+v", p2)
	}
	// 100 played 8 games a month ago and 8 long ago, and the two draws: all
	// against players at 1800 (every cycle is symmetric), p = 1/2.
	want := points / math.Sqrt((8+8.0/150+30.0/150+1.0/150)/4)
	if !p100.Official || !near(p100.Uncertainty, want, 1e-6) {
		t.Errorf("%+v; want uncertainty %.4f", p100, want)
	}
}

// TestRelabelling: the same games under other ids, in another order, give
// every player the same entry.
func TestRelabelling(t *testing.T) {
	for seed := range uint64(5) {
		gs, _ := randomArchive(seed, 40, 400)
		for i := range 5 { // five players who only lost: not rated
			gs = append(gs, rating.Game{A: 40 + i, B: i, Result: rating.Loss, Date: monthsAgo(i)})
		}
		rng := rand.New(rand.NewPCG(seed, 99))
		relabel := map[int]int{}
		for _, id := range rng.Perm(45) {
			relabel[len(relabel)] = 1000 + id*7
		}
		other := make([]rating.Game, len(gs))
		for k, i := range rng.Perm(len(gs)) {
			g := gs[i]
			g.A, g.B = relabel[g.A], relabel[g.B]
			if k%2 == 0 { // the same game seen from the other side
				g.A, g.B = g.B, g.A
				g.Result = map[rating.Result]rating.Result{rating.Win: rating.Loss, rating.Draw: rating.Draw, rating.Loss: rating.Win}[g.Result]
			}
			other[k] = g
		}
		l1, err := rating.Compute(gs, listDate, rating.Options{MinPart: 3})
		if err != nil {
			t.Fatal(err)
		}
		l2, err := rating.Compute(other, listDate, rating.Options{MinPart: 3})
		if err != nil {
			t.Fatal(err)
		}
		rated := 0
		for _, p := range l1.Players {
			q := find(t, l2, relabel[p.ID])
			if p.Rated {
				rated++
			}
			if p.Rated != q.Rated || !near(p.Rating, q.Rating, 1e-6) || !near(p.Uncertainty, q.Uncertainty, 1e-6) ||
				p.Games != q.Games || p.Missing != q.Missing || l1.Parts[p.Part-1].Size != l2.Parts[q.Part-1].Size {
				t.Errorf("seed %d: player %d: %+v; relabelled %d: %+v", seed, p.ID, p, q.ID, q)
			}
		}
		if rated == 0 || rated == len(l1.Players) {
			t.Errorf("seed %d: %d of %d rated: the test needs both", seed, rated, len(l1.Players))
		}
	}
}

// TestDeterministic: the same games give the same list, to the bit.
func TestDeterministic(t *testing.T) {
	gs, _ := randomArchive(7, 60, 600)
	l1, err := rating.Compute(gs, listDate, rating.Options{})
	if err != nil {
		t.Fatal(err)
	}
	l2, _ := rating.Compute(gs, listDate, rating.Options{})
	for i := range l1.Players {
		if l1.Players[i] != l2.Players[i] {
			t.Fatalf("%+v\n%+v", l1.Players[i], l2.Players[i])
		}
	}
}

func TestInvalid(t *testing.T) {
	ok := rating.Game{A: 1, B: 2, Result: rating.Win, Date: listDate}
	tests := []struct {
		games []rating.Game
		at    time.Time
		opt   rating.Options
		want  string
	}{
		{[]rating.Game{ok, {A: 3, B: 3, Result: rating.Win, Date: listDate}}, listDate, rating.Options{}, "game 2: player 3 against themself"},
		{[]rating.Game{{A: 1, B: 2, Date: listDate}}, listDate, rating.Options{}, "game 1 (1 against 2): no result"},
		{[]rating.Game{{A: 1, B: 2, Result: 7, Date: listDate}}, listDate, rating.Options{}, "no result (want win, draw or loss)"},
		{[]rating.Game{{A: 1, B: 2, Result: rating.Win}}, listDate, rating.Options{}, "game 1 (1 against 2): no tournament date"},
		{[]rating.Game{ok}, time.Time{}, rating.Options{}, "no list date"},
		{[]rating.Game{ok}, listDate, rating.Options{MinPart: 1}, "a rated part of 1 players (want at least 2)"},
	}
	for _, tt := range tests {
		_, err := rating.Compute(tt.games, tt.at, tt.opt)
		if !errors.Is(err, rating.ErrInvalidInput) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("error %v, want %q", err, tt.want)
		}
	}
	_, err := rating.Preview([]rating.Game{ok}, []rating.Game{{A: 5, B: 5, Result: rating.Win}}, listDate, rating.Options{})
	if !errors.Is(err, rating.ErrInvalidInput) || !strings.Contains(err.Error(), "event game 1: player 5 against themself") {
		t.Errorf("preview: %v", err)
	}
}

// TestPreview: an event's players in the list without it and with it, its
// games played at its date.
func TestPreview(t *testing.T) {
	archive := cycle(100, 10, monthsAgo(3))
	event := []rating.Game{
		{A: 1, B: 100, Result: rating.Win, Date: time.Date(1990, 1, 1, 0, 0, 0, 0, time.UTC)}, // the date is the event's, not this
		{A: 1, B: 101, Result: rating.Loss},
		{A: 100, B: 101, Result: rating.Draw},
	}
	changes, err := rating.Preview(archive, event, listDate, rating.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 3 {
		t.Fatalf("%d changes, want 3 (the event's players)", len(changes))
	}
	withEvent := slices.Concat(archive, event)
	for i := range event {
		withEvent[len(archive)+i].Date = listDate
	}
	before, _ := rating.Compute(archive, listDate, rating.Options{})
	after, _ := rating.Compute(withEvent, listDate, rating.Options{})
	for i, c := range changes {
		if a := find(t, after, c.ID); c.After != a || (i > 0 && changes[i-1].After.Rating < a.Rating) {
			t.Errorf("change %d: after %+v, want %+v, in the list's order", i, c.After, a)
		}
		b, seen := before.Player(c.ID)
		if !seen {
			b = rating.Player{ID: c.ID}
		}
		if c.Before != b {
			t.Errorf("change %d: before %+v, want %+v", i, c.Before, b)
		}
	}
	if p := find(t, after, 1); !p.Rated || p.Weighted != 2 {
		t.Errorf("the event's new player: %+v", p)
	}
	if p, _ := before.Player(100); !near(p.Rating, 1800, 1e-6) {
		t.Errorf("before: %+v", p)
	}
}
