package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"github.com/otd-project/otd/app"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/otd-project/otd/archive"
	"github.com/otd-project/otd/elo"
	"github.com/otd-project/otd/internal/txt"
	"github.com/otd-project/otd/internal/userfile"
	"github.com/otd-project/otd/tournament"
	"github.com/spf13/pflag"
)

// listFlags name the rating list a command takes players and ratings from:
// --ratings, --at, --min-part.
type listFlags struct {
	Ratings string
	At      tournament.Date
	MinPart int
}

// minPartFlag defines --min-part: Options.MinPart (0: the WOF's 10).
func minPartFlag(f *pflag.FlagSet, n *int) {
	f.Var((*minPart)(n), "min-part", "the fewest `players` of a linked part that is rated (default the WOF's 10; a federation's own small pool may want fewer, at least 2)")
}

// minPart is --min-part's value: at least 2.
type minPart int

func (m *minPart) String() string {
	if *m == 0 {
		return ""
	}
	return strconv.Itoa(int(*m))
}

func (m *minPart) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 2 {
		return fmt.Errorf("%q: a rated part has at least 2 players", s)
	}
	*m = minPart(n)
	return nil
}

func (m *minPart) Type() string { return "players" }

func (l *listFlags) add(f *pflag.FlagSet, atDefault string) {
	f.StringVar(&l.Ratings, "ratings", "", "the rating `list`: a list written by 'otd rating --csv', or the archive it is computed from (the database of 'otd archive index', or a folder of .ELO files)")
	f.TextVar(&l.At, "at", &l.At, "the `day` of the list computed from an archive, YYYY-MM-DD (default "+atDefault+")")
	minPartFlag(f, &l.MinPart)
}

// read reads the list at the day of --at, else def, else today.
func (l listFlags) read(g *globals, def tournament.Date) (map[int]archive.Listed, string, error) {
	return g.ratingList(l.Ratings, g.listDay(l.At, def), l.MinPart)
}

// maxIDLine is the longest line of a file of WOF ids.
const maxIDLine = 64 << 10

// readIDs reads WOF ids from arguments: each a number, numbers separated by
// commas, or a file of them, one a line (the line's first field, separated
// by a comma, semicolon, tab or space; a first line that does not start with
// a number is a header).
func readIDs(args []string) ([]int, error) {
	var ids []int
	for _, a := range args {
		if isIDList(a) {
			for _, s := range strings.Split(a, ",") {
				id, _ := strconv.Atoi(strings.TrimSpace(s))
				ids = append(ids, id)
			}
			continue
		}
		f, err := userfile.Open(a, userfile.MaxSize)
		if err != nil {
			return nil, inputError(fmt.Errorf("%q is neither WOF ids (79 or 79,2357) nor a file of them: %w", a, err))
		}
		more, err := readIDFile(f)
		f.Close()
		if err != nil {
			return nil, inputError(fmt.Errorf("%s: %w", a, err))
		}
		ids = append(ids, more...)
	}
	if len(ids) == 0 {
		return nil, usageErrorf("no WOF id given: name the players to register by WOF id (79 2357, or a file of them)")
	}
	return ids, nil
}

// readIDFile reads a file of WOF ids: one a line, the line's first field
// (separated by a comma, semicolon, tab or space); a first line that does
// not start with a number is a header, and blank lines are skipped.
func readIDFile(r io.Reader) ([]int, error) {
	var ids []int
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), maxIDLine)
	n := 1
	for ; sc.Scan(); n++ {
		fields := strings.FieldsFunc(strings.TrimPrefix(sc.Text(), "\uFEFF"), func(r rune) bool { return strings.ContainsRune(",; \t\r", r) })
		if len(fields) == 0 {
			continue
		}
		first := strings.Trim(fields[0], `"'`)
		if id, err := strconv.Atoi(first); err == nil && id > 0 {
			ids = append(ids, id)
		} else if n > 1 {
			return nil, fmt.Errorf("line %d: %.40q is not a WOF id: a file of WOF ids has one a line, first", n, first)
		}
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return nil, fmt.Errorf("line %d: longer than %d KiB: not a file of WOF ids, one a line", n, maxIDLine>>10)
	} else if err != nil {
		return nil, err
	}
	return ids, nil
}

// isIDList tells whether s is WOF ids: "79" or "79,2357".
func isIDList(s string) bool {
	for _, f := range strings.Split(s, ",") {
		if id, err := strconv.Atoi(strings.TrimSpace(f)); err != nil || id < 1 {
			return false
		}
	}
	return true
}

// listedInput is the registration of a player of a rating list: the list's
// name, WOF id, country (none if otd does not know the code) and rating
// (none if not rated), and what the director should know of it.
func listedInput(p archive.Listed) (tournament.PlayerInput, string) {
	in := tournament.PlayerInput{Name: p.Name, WOFID: p.ID}
	var notes []string
	switch {
	case p.Rated && p.Unlisted:
		notes = append(notes, fmt.Sprintf("rated %.0f but not on the published list (no rated tournament in its last 38 months): registered without a rating", p.Rating))
	case p.Rated:
		in.Rating = ratingOf(p)
	default:
		why := ""
		if p.Why != "" {
			why = " (" + p.Why + ")"
		}
		notes = append(notes, "not rated"+why+": registered without a rating")
	}
	if c, err := tournament.NormalizeCountry(p.Country); err == nil {
		in.Country = c
	} else {
		notes = append(notes, fmt.Sprintf("country %q is no code otd knows: registered without one ('otd player edit N --country CC')", p.Country))
	}
	if err := txt.CheckName(in.Name); err != nil && in.Name != "" {
		clean := txt.CleanName(in.Name)
		notes = append(notes, fmt.Sprintf("the list's name %s is not one otd keeps (%v): registered as %q", elo.QuoteCut(in.Name), err, clean))
		in.Name = clean
	}
	if in.Name == "" {
		in.Name = fmt.Sprintf("WOF %d", p.ID)
		notes = append(notes, "no name in the list: registered as "+in.Name)
	}
	if len(notes) == 0 {
		return in, ""
	}
	return in, fmt.Sprintf("WOF id %d (%s): %s", p.ID, in.Name, strings.Join(notes, "; "))
}

// ratingOf is a rated player's rating as a player's: rounded, within what
// a player's rating may be.
func ratingOf(p archive.Listed) int { return min(max(int(math.Round(p.Rating)), 1), 4000) }

// registerFromList registers the players of these WOF ids from the list,
// all or none, in the order given; a WOF id that is not in the list is
// refused before anything is registered.
func registerFromList(g *globals, list map[int]archive.Listed, src string, ids []int, allowDup bool) ([]tournament.Change, []string, error) {
	var es []app.Entrant
	var notes []string
	for _, id := range ids {
		p, ok := list[id]
		if !ok {
			return nil, nil, inputError(fmt.Errorf("WOF id %d is not in %s: check the id ('otd archive players NAME' finds one), or register the player with 'otd player add NAME --wof-id ID'", id, src))
		}
		in, note := listedInput(p)
		in.AllowDuplicate = allowDup
		if note != "" {
			notes = append(notes, note)
		}
		es = append(es, app.Entrant{PlayerInput: in})
	}
	_, changes, err := g.act(func(ctx context.Context, d *app.Director, id int64) (app.Outcome, error) {
		return d.RegisterAll(ctx, id, es)
	})
	if err != nil {
		return nil, nil, invalidAsUsage(err)
	}
	return changes, notes, nil
}

// runPlayerImportRatings is 'player import --ratings': the players of the
// WOF ids in args registered from the list, or with no args, the rating of
// every registered player with a WOF id set from it.
func runPlayerImportRatings(g *globals, lf listFlags, args []string, allowDup bool) error {
	t, err := g.current()
	if err != nil {
		return err
	}
	list, src, err := lf.read(g, t.Start)
	if err != nil {
		return err
	}
	if len(args) == 0 {
		return rateRegistered(g, t, list, src)
	}
	ids, err := readIDs(args)
	if err != nil {
		return err
	}
	changes, notes, err := registerFromList(g, list, src, ids, allowDup)
	if err != nil {
		return err
	}
	printRegistered(g, changes, notes, src)
	return nil
}

func printRegistered(g *globals, changes []tournament.Change, notes []string, src string) {
	first, last := changes[0].After.Players[0].Number, changes[len(changes)-1].After.Players[0].Number
	numbers := fmt.Sprintf("numbers %d to %d", first, last)
	if first == last {
		numbers = fmt.Sprintf("number %d", first)
	}
	fmt.Fprintf(g.Stdout, "Registered %s from %s, %s.\n", tournament.Plural(len(changes), "player"), src, numbers)
	for _, n := range notes {
		fmt.Fprintln(g.Stdout, "  "+n)
	}
}

// rateRegistered sets the rating of every registered player whose WOF id is
// rated in the list, in one action, and says who has no rating from it.
func rateRegistered(g *globals, t *tournament.Tournament, list map[int]archive.Listed, src string) error {
	ratings := map[int]int{}
	var notes []string
	for _, p := range t.Players {
		l, ok := list[p.WOFID]
		switch {
		case p.WOFID == 0:
			notes = append(notes, fmt.Sprintf("player %d (%s): no WOF id, rating left as it is", p.Number, p.Name))
		case !ok || !l.Rated:
			notes = append(notes, fmt.Sprintf("player %d (%s): WOF id %d not rated in the list, rating left as it is", p.Number, p.Name, p.WOFID))
		case l.Unlisted:
			notes = append(notes, fmt.Sprintf("player %d (%s): WOF id %d rated %.0f but not on the published list (no rated tournament in its last 38 months), rating left as it is", p.Number, p.Name, p.WOFID, l.Rating))
		case ratingOf(l) != p.Rating:
			ratings[p.Number] = ratingOf(l)
		}
	}
	if len(ratings) > 0 {
		if _, _, err := g.act(func(ctx context.Context, d *app.Director, id int64) (app.Outcome, error) {
			return d.EditRatings(ctx, id, ratings)
		}); err != nil {
			return invalidAsUsage(err)
		}
	}
	fmt.Fprintf(g.Stdout, "Ratings from %s: %d changed.\n", src, len(ratings))
	for _, n := range notes {
		fmt.Fprintln(g.Stdout, "  "+n)
	}
	return nil
}
