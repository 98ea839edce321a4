package otd_test

import (
	"bytes"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/otd-project/otd/tournament"
)

// TestConcurrentResults: four directors' otd processes enter the 200
// results of a round into the same database at once (each its own tables,
// one process a result) while a fifth prints the standings and the round
// over and over. Every command must exit 0 without a word of "locked" or
// "busy", and every result must be there afterwards with its audit row.
func TestConcurrentResults(t *testing.T) {
	t.Parallel() // a database of its own
	const writers = 4
	bin := buildOTD(t)
	db, games := pairedRound(t, bin, 400)
	want := map[int]tournament.Result{}
	for _, g := range games {
		b := (g.Table * 7) % 65
		want[g.Table] = tournament.Result{Black: b, White: 64 - b, Kind: tournament.Normal}
	}
	run := func(args ...string) error {
		cmd := exec.Command(bin, append([]string{"--db", db}, args...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		if msg := strings.ToLower(stderr.String()); err != nil || strings.Contains(msg, "locked") || strings.Contains(msg, "busy") {
			return fmt.Errorf("otd %v: %v: %s", args, err, stderr.String())
		}
		return nil
	}
	var wg sync.WaitGroup
	errs := make(chan error, len(games)+1)
	done := make(chan struct{})
	for w := range writers {
		wg.Go(func() {
			for i := w; i < len(games); i += writers {
				r := want[games[i].Table]
				if err := run("result", "1", strconv.Itoa(games[i].Table), fmt.Sprintf("%d-%d", r.Black, r.White)); err != nil {
					errs <- err
				}
			}
		})
	}
	var reader sync.WaitGroup
	reader.Go(func() {
		reads := [][]string{{"standings"}, {"round", "show", "--json"}}
		for k := 0; ; k++ {
			select {
			case <-done:
				return
			default:
			}
			if err := run(reads[k%2]...); err != nil {
				errs <- err
				return
			}
		}
	})
	wg.Wait()
	close(done)
	reader.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	checkResults(t, db, want, 0, tournament.Result{})
}

// TestConcurrentCreate: three otd processes create tournaments in the same
// new database at once, ten times over; all must succeed (none may take the
// file for another program's or run the schema's migration again).
func TestConcurrentCreate(t *testing.T) {
	t.Parallel() // databases of its own
	bin := buildOTD(t)
	for k := range 10 {
		db := filepath.Join(t.TempDir(), "otd.db")
		var cmds []*exec.Cmd
		outs := make([]bytes.Buffer, 3)
		for i := range outs {
			c := exec.Command(bin, "--db", db, "tournament", "new", "T"+strconv.Itoa(i), "--rounds", "3")
			c.Stdout, c.Stderr = &outs[i], &outs[i]
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			cmds = append(cmds, c)
		}
		for i, c := range cmds {
			if err := c.Wait(); err != nil {
				t.Errorf("try %d: otd %v: %v: %s", k, c.Args[3:], err, outs[i].String())
			}
		}
	}
}
