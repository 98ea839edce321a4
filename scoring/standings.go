package scoring

import (
	"cmp"
	"fmt"
	"slices"
)

// MaxRounds is the most rounds an Event may have.
const MaxRounds = 1000

// Player is a player as the standings need them.
type Player struct {
	ID             int
	WithdrawnAfter int  // the last round before the player withdrew; 0 if they did not, or withdrew before round 1
	Withdrawn      bool // the player withdrew, after round WithdrawnAfter (0: before round 1); implied by WithdrawnAfter > 0
}

// Game is one game of an event. Black and White are player IDs; White is
// ignored for a bye. The Result is scored with the event's Rules.
type Game struct {
	Round        int
	Black, White int
	Result
}

// Event is what the standings are computed from. A round that a player has
// no game in (a late entry, an absence, a result not yet entered) scores 0
// points and counts in the BQ like a bye: give complete rounds.
type Event struct {
	Rounds  int // rounds planned, 1..MaxRounds: they set the BQ constant
	Rules   Rules
	Players []Player
	Games   []Game
}

// Row is one player's line of the standings.
type Row struct {
	Rank      int // 1 for the first; players equal on every tie-break share a rank
	Player    int // the player's ID
	Points    HalfPoints
	BQ        BQ
	Discs     int        // total discs; a bye or forfeit counts as recorded (Rules.ByeDiscs), a missed round 0
	Wins      HalfPoints // games won, a draw a half, a bye or forfeit win a whole
	DiscDiff  int        // the sum of disc differences, as recorded
	Games     int        // games played on the board (normal games, time defaults, decided ties and those without discs)
	NoDiscs   int        // games without discs (NoDiscs): Discs, DiscDiff and the BQ count none for them
	Withdrawn bool       // withdrawn before the last round of the view (or before round 1)
	Rounds    []Cell     // the crosstable line: Rounds[k-1] is round k
}

// Cell is one round of a player's crosstable line.
type Cell struct {
	Kind          Kind // Missed when the player had no game
	Opponent      int  // the opponent's ID; 0 for a bye or a missed round
	Colour        Colour
	Points        HalfPoints
	Discs         int // the player's discs as recorded
	OpponentDiscs int
}

// Standings gives the standings after the last round that has a game: one
// Row per player, in standings order (players sharing a rank in the order of
// Players). A player who withdrew before playing (no game, bye or forfeit won
// before withdrawing) has played nothing: BQ 0, except under WOF, and a rank
// below every player who played (RULES.md section 3).
func (e Event) Standings() ([]Row, error) {
	t, err := e.prepare()
	if err != nil {
		return nil, err
	}
	return t.rows(t.last), nil
}

// AfterRound gives the standings after round r (0..Rounds), counting only
// the games of rounds 1 to r. Rounds after the last round that has a game are
// not counted (they would count as missed by everyone).
func (e Event) AfterRound(r int) ([]Row, error) {
	t, err := e.prepare()
	if err != nil {
		return nil, err
	}
	if r < 0 || r > e.Rounds {
		return nil, fmt.Errorf("after round %d: %w (the event has %d rounds)", r, ErrRound, e.Rounds)
	}
	return t.rows(min(r, t.last)), nil
}

// table is an event checked and indexed by player and round.
type table struct {
	e      Event
	kind   BQKind
	cn, cd int          // c = cn/cd
	sides  []side       // sides[i*R+k-1]: player i's game of round k
	pts    []HalfPoints // pts[i*(R+1)+k]: player i's points after round k
	left   []int        // by player: the first round missed after withdrawing (WithdrawnAfter+1); 0 if not withdrawn
	last   int          // the last round with a game
	val    []int        // by player: the value of the current tie-break
	mark   []int        // by player: stamps for head-to-head
	stamp  int
}

// side is one player's view of a game.
type side struct {
	kind       Kind // Missed for no game
	colour     Colour
	opp        int // the opponent's index; -1 for a bye or no game
	own, other int // discs as recorded
	pts        HalfPoints
}

func (e Event) prepare() (*table, error) {
	R, n := e.Rounds, len(e.Players)
	if R < 1 || R > MaxRounds {
		return nil, fmt.Errorf("%d rounds: %w (1 to %d)", R, ErrRound, MaxRounds)
	}
	if err := e.Rules.Validate(); err != nil {
		return nil, err
	}
	t := &table{e: e, kind: e.Rules.BQ.Kind, sides: make([]side, n*R), pts: make([]HalfPoints, n*(R+1)),
		left: make([]int, n), val: make([]int, n), mark: make([]int, n)}
	t.cn, t.cd = e.Rules.Constant(R)
	idx := make(map[int]int, n)
	for i, p := range e.Players {
		if _, dup := idx[p.ID]; dup {
			return nil, fmt.Errorf("player %d listed twice: %w", p.ID, ErrPlayer)
		}
		if p.WithdrawnAfter < 0 || p.WithdrawnAfter > R {
			return nil, fmt.Errorf("player %d withdrawn after round %d: %w", p.ID, p.WithdrawnAfter, ErrRound)
		}
		idx[p.ID] = i
		if p.Withdrawn || p.WithdrawnAfter > 0 {
			t.left[i] = p.WithdrawnAfter + 1
		}
	}
	for i := range t.sides {
		t.sides[i] = side{kind: Missed, opp: -1}
	}
	// place puts a game in player id's line of round k.
	place := func(id, k int, s side) (int, error) {
		i, ok := idx[id]
		switch {
		case !ok:
			return 0, fmt.Errorf("round %d: player %d: %w (not in the event)", k, id, ErrPlayer)
		case t.sides[i*R+k-1].kind != Missed:
			return 0, fmt.Errorf("round %d: player %d has two games: %w", k, id, ErrRound)
		case t.left[i] > 0 && k >= t.left[i]:
			return 0, fmt.Errorf("round %d: player %d withdrew after round %d: %w", k, id, t.left[i]-1, ErrRound)
		}
		t.sides[i*R+k-1] = s
		return i, nil
	}
	for _, g := range e.Games {
		s, err := score(g.Result, e.Rules)
		switch {
		case err != nil:
			return nil, fmt.Errorf("round %d, player %d: %w", g.Round, g.Black, err)
		case g.Round < 1 || g.Round > R:
			return nil, fmt.Errorf("round %d, player %d: %w (the event has %d rounds)", g.Round, g.Black, ErrRound, R)
		case g.Kind != Bye && g.Black == g.White:
			return nil, fmt.Errorf("round %d: player %d against themselves: %w", g.Round, g.Black, ErrPlayer)
		}
		b, err := place(g.Black, g.Round, side{g.Kind, Black, -1, s.BlackDiscs, s.WhiteDiscs, s.BlackPoints})
		if err != nil {
			return nil, err
		}
		if g.Kind != Bye {
			w, err := place(g.White, g.Round, side{g.Kind, White, b, s.WhiteDiscs, s.BlackDiscs, s.WhitePoints})
			if err != nil {
				return nil, err
			}
			t.sides[b*R+g.Round-1].opp = w
		}
		t.last = max(t.last, g.Round)
	}
	for i := range n {
		for k := 1; k <= R; k++ {
			t.pts[i*(R+1)+k] = t.pts[i*(R+1)+k-1] + t.sides[i*R+k-1].pts
		}
	}
	return t, nil
}

func (t *table) points(i, r int) HalfPoints { return t.pts[i*(t.e.Rounds+1)+r] }

// side gives player i's game of round k (1..Rounds).
func (t *table) side(i, k int) side { return t.sides[i*t.e.Rounds+k-1] }

// out reports whether player i has withdrawn before round r.
func (t *table) out(i, r int) bool { return t.left[i] > 0 && t.left[i] <= r }

// idle reports whether player i, withdrawn by the view after round r (a
// player withdrawn before round 1 is, in every view), has played nothing: no
// game on the board, no bye and no forfeit won before withdrawing.
func (t *table) idle(i, r int) bool {
	if !t.out(i, max(r, 1)) {
		return false
	}
	for k := 1; k < t.left[i]; k++ {
		if s := t.side(i, k); s.kind != Missed && !(s.kind == Forfeit && s.pts == 0) {
			return false
		}
	}
	return true
}

// absent reports whether player i is absent in round r: no game, or a forfeit lost.
func (t *table) absent(i, r int) bool {
	s := t.side(i, r)
	return s.kind == Missed || s.kind == Forfeit && s.pts == 0
}

// bq gives player i's BQ in the view after round r, in units of 1/(2 cd).
func (t *table) bq(i, r int) int {
	last := r
	if t.out(i, r) {
		switch {
		case t.kind == WOF: // the rounds after count as missed, and so do those of a player who played nothing
		case t.idle(i, r): // played nothing, counts nothing
			return 0
		default: // frozen when the player left: opponents' points as of then (RULES.md section 3)
			return t.bq(i, t.left[i]-1)
		}
	}
	self := t.cd*t.e.Rules.squares() + t.cn*int(t.points(i, r)) // a draw against oneself: squares/2 discs
	sum := 0
	for k := 1; k <= last; k++ {
		s := t.side(i, k)
		switch {
		case s.kind == Missed || s.kind == Bye || s.kind == Forfeit,
			t.out(s.opp, r), t.kind == WOF && t.absent(s.opp, r):
			sum += self
		default:
			sum += 2*t.cd*s.own + t.cn*int(t.points(s.opp, r))
		}
	}
	return sum
}

// rows computes the standings after round r.
func (t *table) rows(r int) []Row {
	n := len(t.e.Players)
	rows := make([]Row, n)
	cells := make([]Cell, n*r)
	for i, p := range t.e.Players {
		row := &rows[i]
		*row = Row{Player: p.ID, Points: t.points(i, r), BQ: BQ{t.bq(i, r), 2 * t.cd}, Withdrawn: t.out(i, max(r, 1)),
			Rounds: cells[i*r : (i+1)*r : (i+1)*r]}
		for k := 1; k <= r; k++ {
			s := t.side(i, k)
			c := Cell{Kind: s.kind, Colour: s.colour, Points: s.pts, Discs: s.own, OpponentDiscs: s.other}
			if s.opp >= 0 {
				c.Opponent = t.e.Players[s.opp].ID
			}
			row.Rounds[k-1] = c
			row.Discs += s.own
			row.DiscDiff += s.own - s.other
			switch s.kind {
			case Normal, TimeDefault, NoDiscs, DecidedTie:
				row.Games++
				row.Wins += s.pts
				if s.kind == NoDiscs {
					row.NoDiscs++
				}
			case Forfeit:
				row.Wins += s.pts
			case Bye:
				row.Wins += Point
			}
		}
	}
	// Those who withdrew having played nothing rank below every player who played.
	order := make([]int, 0, n)
	for i := range n {
		if !t.idle(i, r) {
			order = append(order, i)
		}
	}
	groups := [][2]int{{0, len(order)}}
	if played := len(order); played < n {
		for i := range n {
			if t.idle(i, r) {
				order = append(order, i)
			}
		}
		groups = append(groups, [2]int{played, n})
	}
	for _, tb := range t.e.Rules.tieBreaks() {
		var next [][2]int
		for _, g := range groups {
			m := order[g[0]:g[1]]
			if len(m) > 1 {
				t.values(tb, m, rows, r)
				slices.SortStableFunc(m, func(a, b int) int { return cmp.Compare(t.val[b], t.val[a]) })
			}
			for a, b := g[0], g[0]; a < g[1]; a = b {
				for b = a + 1; b < g[1] && t.val[order[b]] == t.val[order[a]]; b++ {
				}
				next = append(next, [2]int{a, b})
			}
		}
		groups = next
	}
	out := make([]Row, n)
	for _, g := range groups {
		for k := g[0]; k < g[1]; k++ {
			out[k] = rows[order[k]]
			out[k].Rank = g[0] + 1
		}
	}
	return out
}

// values sets t.val of the players m for tie-break tb.
func (t *table) values(tb TieBreak, m []int, rows []Row, r int) {
	if tb == ByH2H {
		t.h2h(m, r)
		return
	}
	for _, i := range m {
		row := &rows[i]
		switch tb {
		case ByPoints:
			t.val[i] = int(row.Points)
		case ByBQ:
			t.val[i] = row.BQ.num // every BQ of an event has the same denominator
		case ByDiscs:
			t.val[i] = row.Discs
		case ByWins:
			t.val[i] = int(row.Wins)
		case ByDiscDiff:
			t.val[i] = row.DiscDiff
		}
	}
}

// h2h sets t.val of the players m to the points each scored against the
// others, if each has met every other by round r, or else to 0.
func (t *table) h2h(m []int, r int) {
	for _, i := range m {
		t.val[i] = 0
	}
	if len(m)-1 > r {
		return
	}
	t.stamp++
	group := t.stamp
	for _, i := range m {
		t.mark[i] = group
	}
	pts := make([]int, len(m))
	for x, i := range m {
		met := map[int]bool{}
		for k := 1; k <= r; k++ {
			if s := t.side(i, k); s.opp >= 0 && t.mark[s.opp] == group {
				pts[x] += int(s.pts)
				met[s.opp] = true
			}
		}
		if len(met) < len(m)-1 {
			return
		}
	}
	for x, i := range m {
		t.val[i] = pts[x]
	}
}
