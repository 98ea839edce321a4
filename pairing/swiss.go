package pairing

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// Colour is a player's colour in a game.
type Colour int8

// Colours; NoColour is the colour of a bye or of a round not played.
const (
	NoColour Colour = iota
	Black
	White
)

func (c Colour) String() string {
	switch c {
	case Black:
		return "black"
	case White:
		return "white"
	}
	return "none"
}

// MarshalText writes the colour's name.
func (c Colour) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads a colour's name.
func (c *Colour) UnmarshalText(b []byte) error { return unmarshalName(b, c, NoColour, White) }

// Float says how a player was paired across score groups in a round.
type Float int8

// Floats: down against a lower score (or to the bye), up against a higher one.
const (
	NoFloat Float = iota
	FloatDown
	FloatUp
)

func (f Float) String() string {
	switch f {
	case FloatDown:
		return "down"
	case FloatUp:
		return "up"
	}
	return "none"
}

// MarshalText writes the float's name.
func (f Float) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

// UnmarshalText reads a float's name.
func (f *Float) UnmarshalText(b []byte) error { return unmarshalName(b, f, NoFloat, FloatUp) }

// Status is whether a player takes part in the round being paired.
type Status int8

// Statuses: withdrawn players have left the tournament, absent ones miss
// this round; neither is paired nor gets the bye.
const (
	Active Status = iota
	Withdrawn
	Absent
)

func (s Status) String() string {
	switch s {
	case Withdrawn:
		return "withdrawn"
	case Absent:
		return "absent"
	}
	return "active"
}

// MarshalText writes the status's name.
func (s Status) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a status's name.
func (s *Status) UnmarshalText(b []byte) error { return unmarshalName(b, s, Active, Absent) }

// unmarshalName sets x to the value from lo to hi whose name is b.
func unmarshalName[T interface {
	~int8
	String() string
}](b []byte, x *T, lo, hi T) error {
	for v := lo; v <= hi; v++ {
		if v.String() == string(b) {
			*x = v
			return nil
		}
	}
	return fmt.Errorf("%w: %q", ErrInvalidInput, b)
}

// Game is one past round seen from one player.
type Game struct {
	Opponent int    `json:"opponent,omitempty"` // the opponent's ID; 0 for a bye or a round not played
	Colour   Colour `json:"colour,omitzero"`    // the player's colour; NoColour without a game
	Bye      bool   `json:"bye,omitempty"`      // the player had the bye
	Float    Float  `json:"float,omitzero"`     // how the player floated in that round
	// Points is what the player scored in the game, in half-points: 2 for a
	// win, 1 for a draw, 0 for a loss (and for no game, as in Papp). Only the
	// float compensation reads it.
	Points int `json:"points,omitempty"`
}

// Player is a player as the pairing sees them.
type Player struct {
	ID      int    `json:"id"`                // player number, > 0 and unique
	Points  int    `json:"points"`            // score in half-points
	Rating  int    `json:"rating,omitempty"`  // used in round 1
	Country string `json:"country,omitempty"` // compatriots cost a little to pair
	Status  Status `json:"status,omitzero"`
	// Games holds one entry per past round, oldest first; a round not played
	// is the zero Game. A shorter history than the others' (a late entry) is
	// read as missing the first rounds.
	Games []Game `json:"games,omitempty"`
}

// Input is a round to pair.
type Input struct {
	// Round is the round to pair, from 1; 0 means one more than the longest history.
	Round int `json:"round,omitempty"`
	// Players in standings order (points, then the tournament's tie-breaks): the
	// pairing sorts them by points only, keeping this order within a score.
	Players   []Player `json:"players"`
	Forced    [][2]int `json:"forced,omitempty"`    // pairs to keep as they are (colours are still allocated)
	Forbidden [][2]int `json:"forbidden,omitempty"` // pairs that must not meet
}

// FirstRound is how round 1 is paired.
type FirstRound int8

// First-round methods: by rating, the top half against the bottom half (1
// against n/2+1, ...); or, as Papp, in a seeded random order.
const (
	ByRating FirstRound = iota
	Random
)

var firstRoundNames = [...]string{ByRating: "rating", Random: "random"}

// String gives the method as ParseFirstRound reads it: "rating" or "random".
func (f FirstRound) String() string {
	if f >= 0 && int(f) < len(firstRoundNames) {
		return firstRoundNames[f]
	}
	return fmt.Sprintf("firstround(%d)", int(f))
}

// ParseFirstRound reads a first-round method: rating or random.
func ParseFirstRound(s string) (FirstRound, error) {
	for i, n := range firstRoundNames {
		if strings.EqualFold(s, n) {
			return FirstRound(i), nil
		}
	}
	return 0, fmt.Errorf("first round %q: want rating or random: %w", s, ErrInvalidInput)
}

// MarshalText writes the method as ParseFirstRound reads it.
func (f FirstRound) MarshalText() ([]byte, error) {
	if f < 0 || int(f) >= len(firstRoundNames) {
		return nil, fmt.Errorf("first round %v: %w", f, ErrInvalidInput)
	}
	return []byte(f.String()), nil
}

// UnmarshalText reads the method with ParseFirstRound.
func (f *FirstRound) UnmarshalText(b []byte) (err error) {
	*f, err = ParseFirstRound(string(b))
	return err
}

// Options configure the Swiss pairing.
type Options struct {
	Weights    *Weights // nil: Papp()
	FirstRound FirstRound
	Seed       uint64 // the seed of the colour lots and the random first round
}

// Note is a pairing's use of a last resort: a second bye, or a rematch with
// the same colours (Papp's "infinity", a large finite cost), when no pairing
// avoids it.
type Note struct {
	Rule    Rule   `json:"-"`       // RuleSecondBye or RuleSameColours
	Players []int  `json:"players"` // the IDs concerned
	Text    string `json:"text"`
}

func (n Note) String() string { return n.Text }

// Pair is one board: player IDs.
type Pair struct {
	Black int `json:"black"`
	White int `json:"white"`
}

func (p Pair) String() string { return fmt.Sprintf("%d-%d", p.Black, p.White) }

// Pairing is a round's pairing.
type Pairing struct {
	Pairs []Pair `json:"pairs"`         // in standings order of the higher-ranked player
	Bye   int    `json:"bye,omitempty"` // the ID of the player with the bye, or 0
	Cost  int64  `json:"cost"`          // total cost under the weights used (0 for a round robin)
	// Notes name the last resorts taken (a second bye, a rematch with the
	// same colours) when no pairing avoids them.
	Notes []Note `json:"notes,omitempty"`
}

func (p Pairing) String() string {
	var b strings.Builder
	for i, q := range p.Pairs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(q.String())
	}
	if p.Bye != 0 {
		b.WriteString(" bye:" + strconv.Itoa(p.Bye))
	}
	return b.String()
}

// vertex is a player in the matching, or the virtual bye player.
type vertex struct {
	id      int
	points  int // half-points; the bye's is half a point below the lowest
	rating  int
	country string
	balance int    // blacks - whites
	last    Colour // the colour of round r-1 (none after a bye or a round not played)
	run     int    // games running with the last colour played
	float   Float  // the last float: of the last round played or byed (an absence keeps it)
	comp    bool   // floating back now earns the compensation (Papp's COMPENSATION_FLOATS)
	prevOpp int32  // the previous round's opponent, -1 if none
	met     []meeting
	forbid  []int32
	byes    int  // byes had
	byeLast bool // the bye in round r-1
	// With Weights.AbsentAsBye, the rounds without a game before this one,
	// and whether round r-1 was one: they cost as byes (byeCount).
	missed     int
	missedLast bool
	colours    []Colour // the colour of each round from round 1 (NoColour: none), for the chromatic optimisation
	bye        bool     // the virtual bye player
	forced     int32    // the forced partner, -1 if none
	byeRank    int      // among players who may take the bye, how many rank lower
	pos        int      // position in the round-1 order
}

// class is the vertex's colour class: players of one class and score group
// cost the same to pair with anyone, bar rematches and compatriots.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (v *vertex) class() int {
	c := (min(max(v.balance, -3), 3)+3)*3 + int(v.last)
	c = c*3 + int(v.float)
	c = c * 2
	if v.comp {
		c++
	}
	c += 100 * (2*min(v.byeCount(), 50) + btoi(v.byeAgain()))
	return c
}

// byeCount is the number of earlier byes the bye again costs: the byes had,
// and the rounds without a game under Weights.AbsentAsBye.
func (v *vertex) byeCount() int { return v.byes + v.missed }

// byeAgain reports whether round r-1 was a bye (or, under
// Weights.AbsentAsBye, a round without a game): the bye now costs 1 more.
func (v *vertex) byeAgain() bool { return v.byeLast || v.missedLast }

type meeting struct {
	opp    int32
	colour Colour // this player's colour
}

// swiss is one round being paired.
type swiss struct {
	v      []vertex // by points, then standings; the bye last
	groups [][2]int // score groups: [start, end) into v
	w      Weights
	round  int
	first  bool  // round 1: no one has played yet
	scale  int64 // internal cost = cost*scale + tie-break
	rng    *rand.Rand
	dense  bool // use the complete graph
	// With a ceiling, edges cost 1 for a gap of ceiling or more, or a bye
	// gap of byeCeiling or more, and rematches are not allowed (see forcedGap).
	ceiling, byeCeiling int
	mixed               []int32    // the vertices, shuffled within each score group, then by colour class
	classes             [][][2]int // per score group, the colour classes: [start, end) into mixed
	byPos               []int32    // round 1: the players in their first-round order
	// The cost classes of the certificate (certify.go): built on first use.
	cls      []certClass
	clsStart []int
}

// maxPoints bounds a score, in half-points.
const maxPoints = 10000

// Swiss pairs a Swiss round: the minimum-cost perfect matching of the active
// players (and a virtual bye player in odd fields) under the cost model of
// RULES.md section 4. Forced pairs are kept and the rest is paired around
// them; colours go to the cheaper orientation, then, as Papp, to the one who
// had white (or no game) in the most recent round in which the two players'
// colours differed, then by a seeded lot. Round 1 is paired by rating or in a
// seeded random order (Options.FirstRound); among pairings of equal cost, the
// bye goes to the lowest-ranked player who has not had it.
//
// A second bye and a rematch with the same colours cost Papp's "infinity", a
// large finite cost: when no pairing avoids them the least bad is made and
// Pairing.Notes names them. It returns an error wrapping ErrNoValidPairing,
// naming the players who cannot be paired and why, only when no pairing keeps
// the forced and forbidden pairs, and one wrapping ErrInvalidInput for
// malformed input.
//
// For speed the matching runs on a sparse graph first. Each player is joined,
// in their own score group and those within one group or one point of it, to
// a few players of each colour class (the players of a class in a score group
// cost the same to pair with anyone, bar rematches and compatriots); in round 1
// also to the players around their ideal partner. While that graph has no
// perfect matching it is widened: more score groups, then all the pairs of the
// players left unpaired, then all pairs. Then every pair left out is priced
// with the dual solution of the matching; pairs of negative reduced cost are
// added and the matching is solved again until there are none. The duals are
// then feasible for the complete graph, which proves (LP duality) that the
// pairing is a minimum-cost perfect matching of all allowed pairs: the same
// cost as matching on the complete graph, not an approximation of it.
func Swiss(in Input, opt Options) (Pairing, error) {
	s, err := newSwiss(in, opt)
	if err != nil {
		return Pairing{}, err
	}
	return s.pair()
}

func newSwiss(in Input, opt Options) (*swiss, error) {
	s := &swiss{w: Papp(), round: in.Round}
	if opt.Weights != nil {
		s.w = *opt.Weights
	}
	if err := s.w.Validate(); err != nil {
		return nil, err
	}
	index := map[int]int{} // ID -> index into in.Players
	for i, p := range in.Players {
		switch {
		case p.ID <= 0:
			return nil, fmt.Errorf("%w: player ID %d (must be > 0)", ErrInvalidInput, p.ID)
		case p.Points < 0 || p.Points > maxPoints:
			return nil, fmt.Errorf("%w: player %d has %d half-points", ErrInvalidInput, p.ID, p.Points)
		case p.Status < Active || p.Status > Absent:
			return nil, fmt.Errorf("%w: player %d has status %d", ErrInvalidInput, p.ID, p.Status)
		}
		if _, dup := index[p.ID]; dup {
			return nil, fmt.Errorf("%w: player %d listed twice", ErrInvalidInput, p.ID)
		}
		index[p.ID] = i
		for _, g := range p.Games {
			if g.Colour < NoColour || g.Colour > White || g.Float < NoFloat || g.Float > FloatUp || g.Opponent < 0 {
				return nil, fmt.Errorf("%w: player %d has a malformed game %+v", ErrInvalidInput, p.ID, g)
			}
		}
		if in.Round == 0 {
			s.round = max(s.round, len(p.Games)+1)
		}
	}
	if s.round < 1 {
		return nil, fmt.Errorf("%w: round %d", ErrInvalidInput, in.Round)
	}
	// The vertices: active players by points, keeping the standings order.
	order := make([]int, 0, len(in.Players))
	for i, p := range in.Players {
		if p.Status == Active {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(in.Players[b].Points, in.Players[a].Points) })
	vx := map[int]int32{} // ID -> vertex
	for _, i := range order {
		vx[in.Players[i].ID] = int32(len(s.v))
		s.v = append(s.v, vertex{id: in.Players[i].ID, forced: -1, prevOpp: -1})
	}
	s.first = true
	for k, i := range order {
		p, v := &in.Players[i], &s.v[k]
		v.points, v.rating, v.country = p.Points, p.Rating, p.Country
		// A shorter history is read as missing the first rounds.
		v.colours = make([]Colour, max(s.round-1, len(p.Games)))
		off := len(v.colours) - len(p.Games)
		if s.w.AbsentAsBye {
			v.missed = off
			v.missedLast = s.round > 1 && len(p.Games) == 0
		}
		for r, g := range p.Games {
			v.colours[off+r] = g.Colour
			if g.Bye {
				v.byes++
			}
			if s.w.AbsentAsBye && !g.Bye && g.Colour == NoColour {
				v.missed++
			}
			if g.Bye || g.Colour != NoColour {
				v.float = g.Float // an absence keeps the last float
			}
			switch g.Colour {
			case Black:
				v.balance++
			case White:
				v.balance--
			}
			if g.Colour != NoColour {
				if g.Colour != v.last {
					v.run = 0
				}
				v.last = g.Colour
				v.run++
			}
			if g.Bye || g.Colour != NoColour {
				s.first = false
			}
			o, ok := vx[g.Opponent]
			if !ok || g.Opponent == 0 {
				continue
			}
			v.met = append(v.met, meeting{o, g.Colour})
			if r == len(p.Games)-1 && len(p.Games) <= s.round-1 {
				v.prevOpp = o
			}
		}
		if len(p.Games) > 0 && len(p.Games) <= s.round-1 {
			g := p.Games[len(p.Games)-1] // round r-1
			v.last, v.byeLast = g.Colour, g.Bye
			v.missedLast = s.w.AbsentAsBye && !g.Bye && g.Colour == NoColour
			// Papp's wins_history: 2 won, 1 drew, 0 lost or did not play.
			won, lost := !g.Bye && g.Points == 2, g.Bye || g.Points == 0
			if g.Bye {
				won, lost = false, false // a bye never earns the compensation
			}
			v.comp = s.round > 2 && (v.float == FloatDown && won || v.float == FloatUp && lost)
		} else {
			v.last = NoColour
		}
		if s.w.FloatBackAlways {
			v.comp = v.float != NoFloat
		}
	}
	for _, f := range in.Forbidden {
		ab, err := lookup(index, vx, f, "forbidden")
		if err != nil {
			return nil, err
		}
		if a, b := ab[0], ab[1]; a >= 0 && b >= 0 {
			s.v[a].forbid = append(s.v[a].forbid, b)
			s.v[b].forbid = append(s.v[b].forbid, a)
		}
	}
	for _, f := range in.Forced {
		ab, err := lookup(index, vx, f, "forced")
		if err != nil {
			return nil, err
		}
		a, b := ab[0], ab[1]
		if a < 0 || b < 0 {
			return nil, fmt.Errorf("%w: forced pair %d-%d: both players must be active", ErrInvalidInput, f[0], f[1])
		}
		if s.v[a].forced >= 0 || s.v[b].forced >= 0 {
			return nil, fmt.Errorf("%w: forced pair %d-%d: a player is in two forced pairs", ErrInvalidInput, f[0], f[1])
		}
		if x, y := s.costs(int(a), int(b)); x == infinite && y == infinite {
			return nil, fmt.Errorf("%w: forced pair %d-%d is forbidden or has met with both colours", ErrNoValidPairing, f[0], f[1])
		}
		s.v[a].forced, s.v[b].forced = b, a
	}
	free := 0
	for _, v := range s.v {
		if v.forced < 0 {
			free++
		}
	}
	if free%2 == 1 {
		low := 0
		if len(s.v) > 0 {
			low = s.v[len(s.v)-1].points
		}
		s.v = append(s.v, vertex{bye: true, points: low - 1, forced: -1, prevOpp: -1})
	}
	for i := range s.v {
		if i == 0 || s.v[i].points != s.v[i-1].points {
			s.groups = append(s.groups, [2]int{i, i})
		}
		s.groups[len(s.groups)-1][1] = i + 1
	}
	s.setOrder(opt)
	mix := rand.New(rand.NewPCG(opt.Seed, 1))
	for i := range s.v {
		s.mixed = append(s.mixed, int32(i))
	}
	for _, x := range s.groups {
		p := s.mixed[x[0]:x[1]]
		mix.Shuffle(len(p), func(i, j int) { p[i], p[j] = p[j], p[i] })
		slices.SortStableFunc(p, func(a, b int32) int { return cmp.Compare(s.v[a].class(), s.v[b].class()) })
		var cs [][2]int
		for i := x[0]; i < x[1]; i++ {
			if i == x[0] || s.v[s.mixed[i]].class() != s.v[s.mixed[i-1]].class() {
				cs = append(cs, [2]int{i, i})
			}
			cs[len(cs)-1][1] = i + 1
		}
		s.classes = append(s.classes, cs)
	}
	s.rng = rand.New(rand.NewPCG(opt.Seed, uint64(s.round)))
	// Tie-breaks, below any cost difference: in round 1 the distance from the
	// top-half-against-bottom-half pairing; the rank of the bye.
	s.scale = int64(len(s.v)) + 1
	if s.first {
		s.scale *= int64(len(s.v)/2 + 1)
	}
	if ub := s.upperBound(); ub > costLimit(len(s.v))/s.scale {
		return nil, fmt.Errorf("%w: weights too large for %d players", ErrInvalidInput, len(s.v))
	}
	return s, nil
}

// lookup returns the vertices of a forced or forbidden pair, -1 for a player
// who is not active.
func lookup(index map[int]int, vx map[int]int32, f [2]int, what string) (r [2]int32, err error) {
	for k, id := range f {
		if _, ok := index[id]; !ok {
			return r, fmt.Errorf("%w: %s pair %d-%d: no player %d", ErrInvalidInput, what, f[0], f[1], id)
		}
		r[k] = -1
		if v, ok := vx[id]; ok {
			r[k] = v
		}
	}
	if f[0] == f[1] {
		return r, fmt.Errorf("%w: %s pair %d-%d", ErrInvalidInput, what, f[0], f[1])
	}
	return r, nil
}

// setOrder sets the round-1 positions and the bye ranks.
func (s *swiss) setOrder(opt Options) {
	ord := make([]int, 0, len(s.v))
	for i, v := range s.v {
		if !v.bye {
			ord = append(ord, i)
		}
	}
	if s.first {
		if opt.FirstRound == Random {
			rand.New(rand.NewPCG(opt.Seed, 0)).Shuffle(len(ord), func(i, j int) { ord[i], ord[j] = ord[j], ord[i] })
		} else {
			slices.SortStableFunc(ord, func(a, b int) int { return cmp.Compare(s.v[b].rating, s.v[a].rating) })
		}
	}
	for _, i := range ord {
		s.byPos = append(s.byPos, int32(i))
	}
	below := 0
	for k := len(ord) - 1; k >= 0; k-- {
		v := &s.v[ord[k]]
		v.pos = k
		if v.byeCount() == 0 && v.forced < 0 {
			v.byeRank = below
			below++
		}
	}
}

// edgeCost returns the internal cost of pairing a and b (cost*scale plus a
// tie-break), or false if the pair is not allowed.
func (s *swiss) edgeCost(a, b int) (int64, bool) {
	va, vb := &s.v[a], &s.v[b]
	if va.forced >= 0 || vb.forced >= 0 {
		if va.forced != int32(b) {
			return 0, false
		}
		return 0, true
	}
	x, y := s.costs(a, b)
	c := min(x, y)
	if c == infinite {
		return 0, false
	}
	if s.ceiling > 0 {
		return s.overCeiling(a, b)
	}
	var tie int64
	switch {
	case va.bye:
		tie = int64(vb.byeRank)
	case vb.bye:
		tie = int64(va.byeRank)
	case s.first:
		tie = int64(abs(abs(va.pos-vb.pos) - len(s.byPos)/2))
	}
	return c*s.scale + tie, true
}

func (s *swiss) pair() (Pairing, error) {
	m, err := s.match()
	if err != nil {
		return Pairing{}, err
	}
	var p Pairing
	for a := range s.v {
		b := m.partner(a)
		if b < a {
			continue
		}
		x, y := s.costs(a, b)
		if s.v[b].bye { // the bye is the last vertex
			p.Bye = s.v[a].id
			p.Cost += x
			if n := s.v[a].byes; n > 0 {
				p.Notes = append(p.Notes, Note{RuleSecondBye, []int{s.v[a].id},
					fmt.Sprintf("player %d gets the bye again (%d before): no pairing avoids a second bye or a rematch with the same colours", s.v[a].id, n)})
			}
			continue
		}
		if !s.blackFirst(a, b, x, y) {
			a, b, x = b, a, y
		}
		p.Pairs = append(p.Pairs, Pair{s.v[a].id, s.v[b].id})
		p.Cost += x
		if s.sameColours(a, b) {
			p.Notes = append(p.Notes, Note{RuleSameColours, []int{s.v[a].id, s.v[b].id},
				fmt.Sprintf("%d-%d is a rematch with the same colours as before: no pairing avoids a second bye or a rematch with the same colours", s.v[a].id, s.v[b].id)})
		}
	}
	return p, nil
}

// blackFirst allocates colours to a and b (a ranked higher), given the costs
// of a Black and of b Black: the cheaper orientation; for equal costs, Papp's
// chromatic optimisation (penalties.c): in the most recent round in which
// their colours differed, the one who had white (or no game while the other
// had black) gets black; if their colours never differed, a seeded coin.
func (s *swiss) blackFirst(a, b int, x, y int64) bool {
	if x != y {
		return x < y
	}
	ca, cb := s.v[a].colours, s.v[b].colours
	for r := s.round - 2; r >= 0; r-- {
		p1, p2 := colourAt(ca, r, s.round), colourAt(cb, r, s.round)
		switch {
		case p1 == p2:
		case p1 == Black || p2 == White:
			return false
		default:
			return true
		}
	}
	return s.rng.IntN(2) == 0
}

// colourAt returns the colour of round r+1 (from 0) in a history of colours
// whose last entry is round now-1.
func colourAt(cs []Colour, r, now int) Colour {
	if i := len(cs) - (now - 1) + r; i >= 0 && i < len(cs) {
		return cs[i]
	}
	return NoColour
}

// match returns the matching: on a sparse graph of nearby score groups,
// widened while it has no perfect matching, and completed with every left-out
// pair the duals show could lower the cost (see Swiss).
func (s *swiss) match() (*matcher, error) {
	last := len(s.groups) - 1
	k, rows := min(1, last), false
	var extra [][2]int32
	for {
		m := s.graph(k, extra)
		m.solve()
		switch {
		case m.perfect():
		case k < last:
			k = min(2*k, last)
			continue
		case !rows && !s.dense:
			// Give the players left unpaired all their pairs, then all pairs.
			rows = true
			extra = append(extra, s.rows(m)...)
			continue
		case !s.dense:
			s.dense = true
			continue
		default:
			return nil, s.explain(m)
		}
		if s.dense {
			return m, nil
		}
		more := s.violationsByClass(m, violationLimit)
		if len(more) == 0 {
			return m, nil
		}
		extra = append(extra, more...)
	}
}

// rows returns the allowed pairs of the players m leaves unpaired.
func (s *swiss) rows(m *matcher) [][2]int32 {
	var out [][2]int32
	for a := range s.v {
		if m.partner(a) >= 0 {
			continue
		}
		for b := range s.v {
			if _, ok := s.edgeCost(a, b); ok && a != b {
				out = append(out, [2]int32{int32(a), int32(b)})
			}
		}
	}
	return out
}

// near reports whether score groups g <= h are joined in the sparse graph of
// width k: at most k groups or k points apart.
func (s *swiss) near(g, h, k int) bool {
	return h-g <= k || s.v[s.groups[g][0]].points-s.v[s.groups[h][0]].points <= 2*k
}

// perClass is how many partners the sparse graph gives a player among the
// players of each colour class in each nearby score group.
const perClass = 3

// graph returns the matching graph of width k: each player joined, in every
// score group near theirs, to a few players of each colour class (to all of a
// small group); in round 1, to the players near their ideal partner; plus the
// extra pairs. Or all pairs when s.dense.
func (s *swiss) graph(k int, extra [][2]int32) *matcher {
	if s.dense {
		m := newMatcher(len(s.v), len(s.v)*(len(s.v)-1)/2)
		for a := range s.v {
			for b := a + 1; b < len(s.v); b++ {
				if c, ok := s.edgeCost(a, b); ok {
					m.addEdge(a, b, c)
				}
			}
		}
		return m
	}
	// The pairs, each as its higher vertex in the bucket of its lower one:
	// counted, then placed, then each bucket sorted, so that the edges come
	// in the order of their ends (which the matching's tie-breaks follow).
	start := make([]int32, len(s.v)+1)
	s.pairs(k, extra, func(a, b int32) { start[min(a, b)+1]++ })
	for a := range s.v {
		start[a+1] += start[a]
	}
	higher := make([]int32, start[len(s.v)])
	fill := append([]int32(nil), start[:len(s.v)]...)
	s.pairs(k, extra, func(a, b int32) {
		lo := min(a, b)
		higher[fill[lo]] = max(a, b)
		fill[lo]++
	})
	edges := 0
	for a := range s.v { // fill[a]: the end of a's bucket without repeats
		bs := higher[start[a]:start[a+1]]
		slices.Sort(bs)
		fill[a] = start[a] + int32(len(slices.Compact(bs)))
		edges += int(fill[a] - start[a])
	}
	m := newMatcher(len(s.v), edges)
	for a := range s.v {
		for _, b := range higher[start[a]:fill[a]] {
			if c, ok := s.edgeCost(a, int(b)); ok {
				m.addEdge(a, int(b), c)
			}
		}
	}
	return m
}

// pairs calls f(a, b) for each pair of distinct players of the sparse
// graph of width k (see graph), some more than once.
func (s *swiss) pairs(k int, extra [][2]int32, f func(a, b int32)) {
	pair := func(a, b int32) {
		if a != b {
			f(a, b)
		}
	}
	link := func(p []int32, h int) {
		for i, a := range p {
			for _, c := range s.classes[h] {
				q := s.mixed[c[0]:c[1]]
				for j := range min(perClass, len(q)) {
					pair(a, q[(i+j)%len(q)])
				}
			}
		}
	}
	for g, x := range s.groups {
		for h := g; h < len(s.groups) && s.near(g, h, k); h++ {
			p, q := s.mixed[x[0]:x[1]], s.mixed[s.groups[h][0]:s.groups[h][1]]
			switch {
			case len(p)*len(q) <= 4*perClass*(len(p)+len(q)):
				for i, a := range p {
					if g == h {
						q = p[i+1:]
					}
					for _, b := range q {
						pair(a, b)
					}
				}
			default:
				link(p, h)
				if g != h {
					link(q, g)
				}
			}
		}
	}
	if s.first {
		half := len(s.byPos) / 2
		for i, a := range s.byPos {
			for j := max(0, i+half-perClass); j < min(len(s.byPos), i+half+perClass+1); j++ {
				pair(a, s.byPos[j])
			}
		}
	}
	for _, e := range extra {
		pair(e[0], e[1])
	}
}

// violations returns the allowed pairs whose reduced cost under m's duals is
// negative (none of them is in m's graph). Whole blocks of pairs between two
// score groups are passed over when a lower bound on their cost shows that
// none can be. It prices pair by pair: match uses violationsByClass
// (certify.go), which is tested against it.
func (s *swiss) violations(m *matcher) [][2]int32 {
	low := make([]int64, len(s.groups))
	for g, x := range s.groups {
		low[g] = slices.Min(m.dual[x[0]:x[1]])
	}
	var out [][2]int32
	for g, x := range s.groups {
		for h := g; h < len(s.groups); h++ {
			y := s.groups[h]
			bound := s.lowerBound(s.v[x[0]].points-s.v[y[0]].points, s.v[y[0]].bye) * s.scale
			if low[g]+low[h]+4*bound >= 0 {
				continue
			}
			for a := x[0]; a < x[1]; a++ {
				for b := max(a+1, y[0]); b < y[1]; b++ {
					if c, ok := s.edgeCost(a, b); ok && !m.feasible(a, b, c) {
						out = append(out, [2]int32{int32(a), int32(b)})
					}
				}
			}
		}
	}
	return out
}

// explain says why the players m leaves unpaired cannot all be paired.
func (s *swiss) explain(m *matcher) error {
	bye := len(s.v) - 1
	if bye >= 0 && s.v[bye].bye && m.partner(bye) < 0 && len(s.options(bye)) == 0 {
		return fmt.Errorf("%w: the field is odd and every player who could take the bye has had it", ErrNoValidPairing)
	}
	var why []string
	left := 0
	for a, v := range s.v {
		if m.partner(a) >= 0 || v.bye {
			continue
		}
		if left++; left > 3 {
			continue
		}
		var metBoth, forbidden []string
		for b, w := range s.v {
			_, ok := s.edgeCost(a, b)
			switch {
			case ok || b == a || w.bye || w.forced >= 0:
			case slices.Contains(v.forbid, int32(b)):
				forbidden = append(forbidden, strconv.Itoa(w.id))
			default:
				metBoth = append(metBoth, strconv.Itoa(w.id))
			}
		}
		var r []string
		if can := s.options(a); len(can) > 0 {
			r = append(r, "may only meet "+list(can)+", who cannot all be paired otherwise")
		} else {
			if len(metBoth) > 0 {
				r = append(r, "has met "+list(metBoth)+" with both colours")
			}
			if len(forbidden) > 0 {
				r = append(r, "must not meet "+list(forbidden))
			}
		}
		why = append(why, fmt.Sprintf("player %d %s", v.id, strings.Join(r, " and ")))
	}
	if left > 3 {
		why = append(why, fmt.Sprintf("and %d more", left-3))
	}
	return fmt.Errorf("%w: %d players cannot be paired: %s", ErrNoValidPairing, left, strings.Join(why, "; "))
}

// options returns the names of those a may be paired with.
func (s *swiss) options(a int) []string {
	var can []string
	for b, w := range s.v {
		if _, ok := s.edgeCost(a, b); ok && b != a {
			name := strconv.Itoa(w.id)
			if w.bye {
				name = "the bye"
			}
			can = append(can, name)
		}
	}
	return can
}

// list joins names, abbreviating long lists.
func list(names []string) string {
	if len(names) > 6 {
		return strings.Join(names[:5], ", ") + fmt.Sprintf(" and %d others", len(names)-5)
	}
	return strings.Join(names, ", ")
}
