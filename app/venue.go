package app

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/otd-project/otd/tournament"
)

// The venue (issue 31): players report their games' results from their
// phones, each side of a game through its own token (token.go); two reports
// that agree are recorded through the same operation as 'otd result', or
// held for the director; the rest waits in the director's queue. Reports
// are kept in the database (tournament.VenueTx), not in the audit trail: a
// result recorded from them is, its actor saying who reported.

// Errors of the venue's actions, for the web to word.
var (
	// ErrUnknownToken: no game of the tournament has the token: mistyped,
	// of another event, or of a pairing undone.
	ErrUnknownToken = errors.New("no game has this address: check it against the slip")
	// ErrRecorded: the game's result is recorded; only the director
	// changes it now.
	ErrRecorded = errors.New("recorded: only the director can change it now")
	// ErrNoReports: the director approves or rejects a game without reports.
	ErrNoReports = errors.New("the game has no report")
	// ErrReportsDiffer: the director approves disputed reports without
	// choosing a side.
	ErrReportsDiffer = errors.New("the reports differ: approve one side's, or enter the result")
	// ErrNoDirectorPassword: the tournament has no director's password.
	ErrNoDirectorPassword = errors.New("no director's password is set: 'otd tournament edit --director-password-file FILE' sets it")
	// ErrWrongPassword: a password that is not the director's.
	ErrWrongPassword = errors.New("not the director's password")
)

// The bounds of a director's password, in bytes (UTF-8): bcrypt reads no
// more than 72. A longer one is refused rather than cut or pre-hashed: a
// passphrase of six words fits, and the hashes already stored stay bcrypt's
// of the password itself.
const (
	MinPasswordLength = 8
	MaxPasswordLength = 72
)

// ReportInput is what a phone reports: the discs (and the moves, if
// given), or a call for the director.
type ReportInput struct {
	Black, White int
	Moves        string
	Call         bool
}

// TableState is what the venue knows of a game.
type TableState string

// Table states.
const (
	NoReport  TableState = "no report"
	OneReport TableState = "one report"
	Held      TableState = "agreed" // both sides agree; held for the director's approval
	Disputed  TableState = "disputed"
	Called    TableState = "called" // a side called the director
	Recorded  TableState = "recorded"
)

// Class is the state as one word, for a page's class: "no-report".
func (s TableState) Class() string { return strings.ReplaceAll(string(s), " ", "-") }

// VenueTable is a game as the director's console shows it.
type VenueTable struct {
	Game  tournament.Game
	State TableState
	// Reports are the game's reports for its players as paired, black's
	// first; none once recorded.
	Reports []tournament.Report
	// SameAddress: Disputed because both reports came from one address.
	SameAddress bool
}

// venueTable gives game g's state from the tournament's reports.
func venueTable(t *tournament.Tournament, g tournament.Game, all []tournament.Report) VenueTable {
	v := VenueTable{Game: g, State: Recorded}
	if g.Result != nil {
		return v
	}
	for _, r := range all {
		if r.For(g) {
			v.Reports = append(v.Reports, r)
		}
	}
	switch {
	case slices.ContainsFunc(v.Reports, func(r tournament.Report) bool { return r.Call }):
		v.State = Called
	case len(v.Reports) == 0:
		v.State = NoReport
	case len(v.Reports) == 1:
		v.State = OneReport
	case !tournament.Agree(v.Reports[0], v.Reports[1], t.Rules()):
		v.State = Disputed
	case v.Reports[0].Address == v.Reports[1].Address:
		v.State, v.SameAddress = Disputed, true
	default:
		v.State = Held
	}
	return v
}

// ReportLink is a game's two tokens, for its slip.
type ReportLink struct {
	Game         tournament.Game
	Black, White Token
}

// ReportLinks gives the tokens of the games of round r (its byes left
// out), or with r 0 of the final phases' games without a result: what the
// slips print. The tournament's secret is made on first use, in a write
// transaction; once made, the links only read (a read-only database prints
// slips). The first use on a read-only database is ErrNoSecret.
func (d *Director) ReportLinks(ctx context.Context, id int64, r int) (links []ReportLink, err error) {
	links, err = d.reportLinks(ctx, false, id, r)
	if !errors.Is(err, errNoSecretYet) {
		return links, err
	}
	links, err = d.reportLinks(ctx, true, id, r)
	if errors.Is(err, tournament.ErrReadOnly) {
		return nil, fmt.Errorf("%w: %w", ErrNoSecret, err)
	}
	return links, err
}

// ErrNoSecret: the report codes were asked of a read-only database before
// the event had its secret: the first printing of slips must write it.
var ErrNoSecret = errors.New("the report codes need the event's secret, made when slips are first printed")

// errNoSecretYet: reportLinks in a read transaction met no secret.
var errNoSecretYet = errors.New("no venue secret yet")

// reportLinks is ReportLinks in a read transaction (an existing secret,
// else errNoSecretYet) or with write a write one (the secret made if none).
func (d *Director) reportLinks(ctx context.Context, write bool, id int64, r int) (links []ReportLink, err error) {
	run := d.db.View
	if write {
		run = d.db.Update
	}
	err = run(ctx, func(tx tournament.Tx) error {
		t, err := load(tx, id)
		if err != nil {
			return err
		}
		games := t.Round(r)
		if r == 0 {
			games = slices.DeleteFunc(slices.Clone(t.FinalGames), func(g tournament.Game) bool { return g.Result != nil })
		} else if r < 1 || r > t.Paired() {
			return fmt.Errorf("round %d: %w (%d paired)", r, tournament.ErrNoGame, t.Paired())
		}
		k, err := tx.VenueKeys(id)
		if err != nil {
			return err
		}
		if len(k.Secret) == 0 {
			if !write {
				return errNoSecretYet
			}
			k.Secret = make([]byte, 32)
			rand.Read(k.Secret) // never fails (crypto/rand)
			if err := tx.PutVenueKeys(id, k); err != nil {
				return err
			}
		}
		for _, g := range games {
			if !g.IsBye() {
				links = append(links, ReportLink{g, token(k.Secret, id, g, tournament.Black), token(k.Secret, id, g, tournament.White)})
			}
		}
		return nil
	})
	return links, err
}

// Reporting is what a token opens: one side of a game, its players, and
// what that side has reported.
type Reporting struct {
	Side         tournament.Color
	Black, White tournament.Player
	Table        VenueTable
	Reported     *tournament.Report // this side's report, nil if none
}

// opened finds the game and side a token opens in transaction tx: a game
// recorded is ErrRecorded, with the tournament and the game found.
func opened(tx tournament.Tx, id int64, tok string) (*tournament.Tournament, found, []tournament.Report, error) {
	t, err := load(tx, id)
	if err != nil {
		return nil, found{}, nil, err
	}
	k, err := tx.VenueKeys(id)
	if err != nil {
		return nil, found{}, nil, err
	}
	f, err := lookup(k.Secret, t, tok)
	if err != nil {
		return nil, f, nil, err
	}
	if f.game.Result != nil {
		return t, f, nil, fmt.Errorf("%s: %w", f.game.Where(), ErrRecorded)
	}
	rs, err := tx.Reports(id)
	return t, f, rs, err
}

// reporting is what token opens, once found.
func reporting(t *tournament.Tournament, f found, rs []tournament.Report) Reporting {
	v := venueTable(t, *f.game, rs)
	r := Reporting{Side: f.side, Black: t.Players[f.game.Black-1], White: t.Players[f.game.White-1], Table: v}
	for i := range v.Reports {
		if v.Reports[i].Side == f.side {
			r.Reported = &v.Reports[i]
		}
	}
	return r
}

// Reporting gives the game and side that token opens: ErrUnknownToken if
// none; ErrRecorded if its game is recorded, with the Reporting of the game
// (its state Recorded, its result): what the phone that reported shows.
func (d *Director) Reporting(ctx context.Context, id int64, tok string) (r Reporting, err error) {
	err = d.db.View(ctx, func(tx tournament.Tx) error {
		t, f, rs, err := opened(tx, id, tok)
		if err == nil || errors.Is(err, ErrRecorded) {
			r = reporting(t, f, rs)
		}
		return err
	})
	return r, err
}

// resultOp is the operation that records report r's result: 'otd result'
// with its score, through its moves if it gives them (RecordMoves).
func resultOp(r tournament.Report) tournament.Op {
	in := tournament.ResultInput{Black: r.Black, White: r.White, HasScore: true}
	if r.Moves != "" {
		return recordMoves(r.Game, in, false, Moves{List: r.Moves}, "")
	}
	return func(t *tournament.Tournament) (tournament.Change, error) { return t.RecordResult(r.Game, in, false) }
}

// Report stores the report of the side that token opens, sent from address
// at time at: its score and moves are checked at once as 'otd result'
// checks them (a contradiction is refused with a *MovesError), a call has
// none. With both sides in and agreeing (from two addresses), the result is
// recorded, by the reports' actor, unless the tournament holds such
// results for the director (VenueApproval). It returns the game's state
// (with ErrRecorded too: the game as recorded).
func (d *Director) Report(ctx context.Context, id int64, tok string, in ReportInput, address string, at time.Time) (Reporting, error) {
	var out Reporting
	err := d.db.Update(ctx, func(tx tournament.Tx) error {
		t, f, rs, err := opened(tx, id, tok)
		if errors.Is(err, ErrRecorded) {
			out = reporting(t, f, rs)
		}
		if err != nil {
			return err
		}
		g := *f.game
		r := tournament.Report{Game: g.Ref(), Side: f.side, Black: in.Black, White: in.White, Moves: in.Moves, Call: in.Call,
			ForBlack: g.Black, ForWhite: g.White, Address: address, At: at}
		if in.Call {
			r.Black, r.White = 0, 0
		} else if _, err := resultOp(r)(t.Clone()); err != nil {
			return err
		}
		if slices.ContainsFunc(rs, func(o tournament.Report) bool { return o.Game == r.Game && !o.For(g) }) {
			// Reports of the game as paired before: void.
			if err := tx.DeleteReports(id, r.Game); err != nil {
				return err
			}
		}
		if err := tx.PutReport(id, r); err != nil {
			return err
		}
		if rs, err = tx.Reports(id); err != nil {
			return err
		}
		v := venueTable(t, g, rs)
		if v.State == Held && t.VenueApproval != tournament.ApproveDirector {
			if t, err = d.record(tx, id, v.Reports, agreed(v.Reports), ""); err != nil {
				return err
			}
			if f.game, err = t.Find(r.Game); err != nil {
				return err
			}
		}
		out = reporting(t, f, rs)
		return nil
	})
	return out, err
}

// agreed is the report that two agreeing reports are recorded by: the one
// with moves, black's if both or neither have them.
func agreed(rs []tournament.Report) tournament.Report {
	if rs[0].Moves == "" && rs[1].Moves != "" {
		return rs[1]
	}
	return rs[0]
}

// record records report r's result in transaction tx by the actor of the
// reports rs (with the approving director's session; chosen: the side
// whose report the director chose, "" if they agreed), and deletes the
// game's reports. It returns the tournament after.
func (d *Director) record(tx tournament.Tx, id int64, rs []tournament.Report, r tournament.Report, chosen tournament.Color) (*tournament.Tournament, error) {
	a := tournament.Actor{Kind: tournament.ByReport, Session: d.actor.Session, Login: d.actor.Login, Reports: reportedBy(rs, chosen)}
	t, _, err := d.As(a).apply(tx, id, []tournament.Op{resultOp(r)})
	if err != nil {
		return nil, err
	}
	return t, tx.DeleteReports(id, r.Game)
}

// reportedBy gives reports rs as a result's actor keeps them, chosen's
// marked.
func reportedBy(rs []tournament.Report, chosen tournament.Color) []tournament.Reported {
	var out []tournament.Reported
	for _, x := range rs {
		score := fmt.Sprintf("%d-%d", x.Black, x.White)
		if x.Call {
			score = "call"
		}
		out = append(out, tournament.Reported{Side: x.Side, Address: x.Address, At: x.At, Score: score, Moves: x.Moves != "", Chosen: x.Side == chosen})
	}
	return out
}

// overReports is the Director acting on game ref of tournament id in
// transaction tx with the game's reports, if it has any, kept in its
// actor (the director enters the result over them: none chosen), and
// whether it has.
func (d *Director) overReports(tx tournament.Tx, id int64, ref tournament.GameRef) (*Director, bool, error) {
	rs, err := tx.Reports(id)
	if err != nil || !slices.ContainsFunc(rs, func(r tournament.Report) bool { return r.Game == ref }) {
		return d, false, err
	}
	t, err := load(tx, id)
	if err != nil {
		return nil, false, err
	}
	g, err := t.Find(ref)
	if err != nil {
		return d, false, nil // the action says so
	}
	rs = slices.DeleteFunc(rs, func(r tournament.Report) bool { return !r.For(*g) })
	if len(rs) == 0 {
		return d, false, nil
	}
	a := d.actor
	a.Reports = reportedBy(rs, "")
	return d.As(a), true, nil
}

// VenueTables gives the state of every table of the last round paired (its
// byes left out) and of the final phases' games without a result.
func (d *Director) VenueTables(ctx context.Context, id int64) (out []VenueTable, err error) {
	err = d.db.View(ctx, func(tx tournament.Tx) error {
		t, err := load(tx, id)
		if err != nil {
			return err
		}
		rs, err := tx.Reports(id)
		if err != nil {
			return err
		}
		for _, g := range t.Round(t.Paired()) {
			if !g.IsBye() {
				out = append(out, venueTable(t, g, rs))
			}
		}
		for _, g := range t.FinalGames {
			if g.Result == nil {
				out = append(out, venueTable(t, g, rs))
			}
		}
		return nil
	})
	return out, err
}

// Approve records game ref's result from its reports, approved by the
// director acting (a console session: the result's actor names it): with
// side "", the two reports must agree; else the result is side's report.
func (d *Director) Approve(ctx context.Context, id int64, ref tournament.GameRef, side tournament.Color) (v VenueTable, err error) {
	err = d.db.Update(ctx, func(tx tournament.Tx) error {
		t, g, rs, err := reported(tx, id, ref)
		if err != nil {
			return err
		}
		v = venueTable(t, *g, rs)
		var r tournament.Report
		switch i := slices.IndexFunc(v.Reports, func(r tournament.Report) bool { return r.Side == side }); {
		case side != "" && i < 0:
			return fmt.Errorf("%s: %w of %s", g.Where(), ErrNoReports, side)
		case side != "" && v.Reports[i].Call:
			return fmt.Errorf("%s: %s called the director, reporting no score: enter the result", g.Where(), side)
		case side != "":
			r = v.Reports[i]
		case len(v.Reports) < 2 || !tournament.Agree(v.Reports[0], v.Reports[1], t.Rules()):
			return fmt.Errorf("%s: %w", g.Where(), ErrReportsDiffer)
		default:
			r = agreed(v.Reports)
		}
		if t, err = d.record(tx, id, v.Reports, r, side); err != nil {
			return err
		}
		g, err = t.Find(ref)
		v = VenueTable{Game: *g, State: Recorded}
		return err
	})
	return v, err
}

// reported reads game ref of tournament id and the tournament's reports, in
// transaction tx: a game recorded is ErrRecorded, one without reports
// ErrNoReports.
func reported(tx tournament.Tx, id int64, ref tournament.GameRef) (*tournament.Tournament, *tournament.Game, []tournament.Report, error) {
	t, err := load(tx, id)
	if err != nil {
		return nil, nil, nil, err
	}
	g, err := t.Find(ref)
	if err != nil {
		return nil, nil, nil, err
	}
	if g.Result != nil {
		return nil, nil, nil, fmt.Errorf("%s: %w", g.Where(), ErrRecorded)
	}
	rs, err := tx.Reports(id)
	if err == nil && !slices.ContainsFunc(rs, func(r tournament.Report) bool { return r.For(*g) }) {
		err = fmt.Errorf("%s: %w", g.Where(), ErrNoReports)
	}
	return t, g, rs, err
}

// Reject drops game ref's reports: its players report again (or the
// director enters the result).
func (d *Director) Reject(ctx context.Context, id int64, ref tournament.GameRef) error {
	return d.db.Update(ctx, func(tx tournament.Tx) error {
		if _, _, _, err := reported(tx, id, ref); err != nil {
			return err
		}
		return tx.DeleteReports(id, ref)
	})
}

// PasswordCost is bcrypt's cost of the director's password's hash (its
// default, 10: some 50 ms a check on a laptop, which slows a guesser more
// than the rate limits need); tests that log in many times may lower it.
var PasswordCost = bcrypt.DefaultCost

// SetDirectorPassword sets the director's password of the venue's console,
// kept as bcrypt's hash; the audit trail says it was set, nothing more.
func (d *Director) SetDirectorPassword(ctx context.Context, id int64, password string) error {
	if n := len(password); n < MinPasswordLength || n > MaxPasswordLength {
		return fmt.Errorf("the director's password: %w: %d bytes, it must have %d to %d: choose another", tournament.ErrInvalid, n, MinPasswordLength, MaxPasswordLength)
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(password), PasswordCost)
	if err != nil {
		return fmt.Errorf("the director's password: %w", err)
	}
	return d.db.Update(ctx, func(tx tournament.Tx) error {
		if _, _, err := d.apply(tx, id, []tournament.Op{func(t *tournament.Tournament) (tournament.Change, error) {
			return t.DirectorPasswordSet(), nil
		}}); err != nil {
			return err
		}
		k, err := tx.VenueKeys(id)
		if err != nil {
			return err
		}
		k.PasswordHash = hash
		return tx.PutVenueKeys(id, k)
	})
}

// CheckDirectorPassword checks password against the director's:
// ErrNoDirectorPassword if none is set, ErrWrongPassword if not it.
func (d *Director) CheckDirectorPassword(ctx context.Context, id int64, password string) error {
	k, err := d.venueKeys(ctx, id)
	switch {
	case err != nil:
		return err
	case len(k.PasswordHash) == 0:
		return ErrNoDirectorPassword
	case bcrypt.CompareHashAndPassword(k.PasswordHash, []byte(password)) != nil:
		return ErrWrongPassword
	}
	return nil
}

// HasDirectorPassword reports whether tournament id has a director's
// password ('tournament show').
func (d *Director) HasDirectorPassword(ctx context.Context, id int64) (bool, error) {
	k, err := d.venueKeys(ctx, id)
	return len(k.PasswordHash) > 0, err
}

func (d *Director) venueKeys(ctx context.Context, id int64) (k tournament.VenueKeys, err error) {
	err = d.db.View(ctx, func(tx tournament.Tx) error {
		if _, err := load(tx, id); err != nil {
			return err
		}
		k, err = tx.VenueKeys(id)
		return err
	})
	return k, err
}
