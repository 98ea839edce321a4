package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"github.com/otd-project/otd/app"
	"io"
	"strconv"
	"strings"

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
func (l listFlags) read(g *globals, def tournament.Date) (map[int]app.Listed, string, error) {
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

// runPlayerImportRatings is 'player import --ratings': the players of the
// WOF ids in o.Args registered from the list, or with no ids, the rating of
// every registered player with a WOF id set from it.
func runPlayerImportRatings(g *globals, o playerImportOptions) error {
	t, err := g.current()
	if err != nil {
		return err
	}
	list, src, err := o.List.read(g, t.Start)
	if err != nil {
		return err
	}
	if len(o.Args) == 0 {
		var r app.Rated
		if _, _, err := g.act(func(ctx context.Context, d *app.Director, id int64) (app.Outcome, error) {
			r, err = d.RateFromList(ctx, id, list)
			return r.Outcome, err
		}); err != nil {
			return invalidAsUsage(err)
		}
		fmt.Fprintf(g.Stdout, "Ratings from %s: %d changed.\n", src, r.Changed)
		printListNotes(g, r.Notes)
		return nil
	}
	ids, err := readIDs(o.Args)
	if err != nil {
		return err
	}
	var r app.Registered
	_, _, err = g.act(func(ctx context.Context, d *app.Director, id int64) (app.Outcome, error) {
		r, err = d.RegisterListed(ctx, id, list, ids, o.AllowDuplicate)
		return r.Outcome, err
	})
	var notListed *app.NotListedError
	if errors.As(err, &notListed) {
		return inputError(fmt.Errorf("WOF id %d is not in %s: check the id ('otd archive players NAME' finds one), or register the player with 'otd player add NAME --wof-id ID'", notListed.ID, src))
	}
	if err != nil {
		return invalidAsUsage(err)
	}
	printRegistered(g, r, src)
	return nil
}

// printRegistered says which players were registered from the list src,
// and what the director should know of them.
func printRegistered(g *globals, r app.Registered, src string) {
	first, last := r.Changes[0].After.Players[0].Number, r.Changes[len(r.Changes)-1].After.Players[0].Number
	numbers := fmt.Sprintf("numbers %d to %d", first, last)
	if first == last {
		numbers = fmt.Sprintf("number %d", first)
	}
	fmt.Fprintf(g.Stdout, "Registered %s from %s, %s.\n", tournament.Plural(len(r.Changes), "player"), src, numbers)
	printListNotes(g, r.Notes)
}

// printListNotes prints notes, one a line, indented.
func printListNotes(g *globals, notes []string) {
	for _, n := range notes {
		fmt.Fprintln(g.Stdout, "  "+n)
	}
}
