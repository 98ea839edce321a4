package postgres

import (
	"context"
	"errors"
	"fmt"
	"github.com/otd-project/otd/app"
	"io/fs"
	"net"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/otd-project/otd/internal/testenv"
	"github.com/otd-project/otd/tournament"
)

// exec runs SQL on the database at u, outside any store.
func execSQL(t *testing.T, u, sql string) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, sql); err != nil {
		t.Fatal(err)
	}
}

// withURL returns u changed by fn.
func withURL(t *testing.T, u string, fn func(*url.URL)) string {
	t.Helper()
	p, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	fn(p)
	return p.String()
}

// freePort returns a local TCP port that nothing listens on.
func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}

// TestOpenErrors: what a federation's IT volunteer gets wrong or meets (the
// server down, a wrong password, a database missing, empty, another
// program's, of a newer otd, a user without rights) is refused with its
// error and one line that names the database, never the password, and says
// what to do.
func TestOpenErrors(t *testing.T) {
	base := testenv.Postgres(t)
	pw, hasPW := func() (string, bool) { u, _ := url.Parse(base); return u.User.Password() }()
	empty := testenv.Postgres(t)
	foreign := testenv.Postgres(t)
	execSQL(t, foreign, "CREATE TABLE members (id int)")
	newer := testenv.Postgres(t)
	s, err := Open(newer, Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	execSQL(t, newer, "UPDATE otd_schema SET version = 99")
	// A user who may log in but not create tables (PostgreSQL 15 lets only
	// a database's owner create in its public schema).
	limited := withURL(t, empty, func(u *url.URL) { u.User = url.UserPassword("otd_limited", "limited") })
	execSQL(t, base, "DROP ROLE IF EXISTS otd_limited; CREATE ROLE otd_limited LOGIN PASSWORD 'limited'")
	t.Cleanup(func() { execSQL(t, base, "DROP ROLE IF EXISTS otd_limited") })

	for _, tc := range []struct {
		name   string
		url    string
		create bool
		want   error
		line   []string
	}{
		{"server down", withURL(t, base, func(u *url.URL) { u.Host = "127.0.0.1:" + freePort(t) }), false, ErrNoServer,
			[]string{"cannot reach the PostgreSQL server at 127.0.0.1:", "connection refused", "is it running"}},
		{"wrong password", withURL(t, base, func(u *url.URL) { u.User = url.UserPassword(u.User.Username(), "wrong-"+pw) }), false, ErrLogin,
			[]string{"wrong password for user", "give the right one in the URL"}},
		{"no such database", withURL(t, base, func(u *url.URL) { u.Path = "/no_such_db" }), false, ErrNoDatabase,
			[]string{`database "no_such_db" does not exist`, "createdb", "otd tournament new"}},
		{"empty", empty, false, ErrNoSchema, []string{"no otd tables yet", "'otd tournament new NAME --rounds N' makes them"}},
		{"another program's", foreign, true, ErrNotOTD, []string{"1 tables of another program", "a database of its own"}},
		{"newer", newer, false, ErrNewerSchema, []string{"schema 99", "upgrade otd"}},
		{"no right to create", limited, true, ErrPermission, []string{"permission denied", `user "otd_limited" needs the rights`}},
		{"not a URL", "postgres://a b/%zz", false, ErrURL, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.want == ErrLogin && !hasPW {
				t.Skip("the test server's URL has no password: it may trust every login")
			}
			s, err := Open(tc.url, Options{Create: tc.create})
			if err == nil {
				s.Close()
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("Open: %v; want %v", err, tc.want)
			}
			msg := err.Error()
			if hasPW && strings.Contains(msg, pw) {
				t.Errorf("the error shows the password: %s", msg)
			}
			for _, l := range tc.line {
				if !strings.Contains(msg, l) {
					t.Errorf("the error %q lacks %q", msg, l)
				}
			}
		})
	}
}

// TestRedact: a URL's password is never shown.
func TestRedact(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"postgres://otd:s3cret@db.example.org:5432/federation", "postgres://otd@db.example.org:5432/federation"},
		{"postgresql://otd@localhost/otd?password=s3cret&sslmode=require", "postgresql://otd@localhost/otd?sslmode=require"},
		{"club.db", "club.db"},
	} {
		if got := Redact(tc.in); got != tc.want {
			t.Errorf("Redact(%q) = %q; want %q", tc.in, got, tc.want)
		}
	}
}

// TestUpgradeInPlace opens a database made by this otd with a later otd that
// has one more migration: the schema is upgraded, the data kept; a store
// that may only read refuses to upgrade it.
func TestUpgradeInPlace(t *testing.T) {
	u := testenv.Postgres(t)
	s, err := Open(u, Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := app.New(s.App()).Create(context.Background(), tournament.DefaultSettings("Old", 5)); err != nil {
		t.Fatal(err)
	}
	s.Close()
	m := fstest.MapFS{"migrations/9999_later.sql": {Data: []byte("ALTER TABLE tournament ADD COLUMN venue text NOT NULL DEFAULT '';")}}
	names, _ := fs.Glob(embedded, "migrations/*.sql")
	for _, n := range names {
		b, _ := fs.ReadFile(embedded, n)
		m[n] = &fstest.MapFile{Data: b}
	}
	old := migrations
	migrations = m
	t.Cleanup(func() { migrations = old })
	if _, err := Open(u, Options{ReadOnly: true}); !errors.Is(err, ErrReadOnly) || !strings.Contains(err.Error(), "written by an older otd") {
		t.Errorf("a read-only Open of an older schema: %v; want it refused", err)
	}
	s, err = Open(u, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var version int
	var venue string
	if err := s.pool.QueryRow(context.Background(), "SELECT (SELECT version FROM otd_schema), venue FROM tournament WHERE name_key = 'OLD'").Scan(&version, &venue); err != nil || version != len(names)+1 {
		t.Errorf("after the upgrade: schema %d, %v; want %d and the old tournament", version, err, len(names)+1)
	}
}

// TestLockWait: a change of a tournament waits while another change of it
// runs, and is refused with ErrBusy, in a line that says to try again, when
// that one lasts longer than the lock wait; tried again once the other has
// ended, it is made. A change of another tournament does not wait.
func TestLockWait(t *testing.T) {
	u := testenv.Postgres(t)
	ctx := context.Background()
	open := func() *app.Director {
		s, err := Open(u, Options{Create: true, LockWait: 200 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return app.New(s.App())
	}
	a, b := open(), open()
	club, err := a.Create(ctx, tournament.DefaultSettings("Club", 3))
	if err != nil {
		t.Fatal(err)
	}
	other, err := a.Create(ctx, tournament.DefaultSettings("Other", 3))
	if err != nil {
		t.Fatal(err)
	}
	holding, release, done := make(chan struct{}), make(chan struct{}), make(chan error)
	go func() {
		_, _, err := a.DoForTest(ctx, club.ID, add("Ann"), func(tm *tournament.Tournament) (tournament.Change, error) {
			close(holding)
			<-release
			return tm.AddPlayer(tournament.PlayerInput{Name: "Bob"})
		})
		done <- err
	}()
	<-holding
	_, _, err = b.DoForTest(ctx, club.ID, add("Cy"))
	if !errors.Is(err, tournament.ErrBusy) || !strings.Contains(err.Error(), "another director has been changing this tournament for over 200ms") ||
		!strings.Contains(err.Error(), "try again") {
		t.Errorf("a change while another holds the tournament: %v; want ErrBusy, try again", err)
	}
	if _, _, err := b.DoForTest(ctx, other.ID, add("Dee")); err != nil {
		t.Errorf("a change of another tournament meanwhile: %v", err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	tm, _, err := b.DoForTest(ctx, club.ID, add("Cy"))
	if err != nil {
		t.Fatalf("tried again: %v", err)
	}
	if len(tm.Players) != 3 || tm.Players[2].Name != "Cy" {
		t.Errorf("after trying again: %v; want Ann, Bob, Cy", tm.Players)
	}
}

// TestInTx: a Director over a transaction of the caller's (InTx) acts
// inside it: its changes are seen once the caller commits, not if it rolls
// back, and a failed action leaves the caller's transaction usable.
func TestInTx(t *testing.T) {
	_, s, club := newClub(t)
	d := app.New(s.App())
	ctx := context.Background()
	for _, commit := range []bool{false, true} {
		tx, err := s.pool.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		in := app.New(app.Store{Storage: s.InTx(tx)})
		if _, _, err := in.DoForTest(ctx, club.ID, add("Ann")); err != nil {
			t.Fatal(err)
		}
		boom := errors.New("boom")
		if _, _, err := in.DoForTest(ctx, club.ID, add("Bob"), func(*tournament.Tournament) (tournament.Change, error) {
			return tournament.Change{}, boom
		}); !errors.Is(err, boom) {
			t.Fatalf("a failing action: %v", err)
		}
		if tm, err := in.Tournament(ctx, club.ID); err != nil || len(tm.Players) != 1 {
			t.Fatalf("inside the transaction: %v, %v; want Ann alone", tm, err)
		}
		if commit {
			err = tx.Commit(ctx)
		} else {
			err = tx.Rollback(ctx)
		}
		if err != nil {
			t.Fatal(err)
		}
		tm, err := d.Tournament(ctx, club.ID)
		if want := map[bool]int{false: 0, true: 1}[commit]; err != nil || len(tm.Players) != want {
			t.Errorf("after the caller's transaction (committed: %v): %v, %v; want %d players", commit, tm, err, want)
		}
	}
}

// newClub makes a new database with a tournament, Club, and returns its
// URL, its store (closed when the test ends) and the tournament.
func newClub(t *testing.T) (string, *Store, *tournament.Tournament) {
	t.Helper()
	u := testenv.Postgres(t)
	s, err := Open(u, Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	club, err := app.New(s.App()).Create(context.Background(), tournament.DefaultSettings("Club", 3))
	if err != nil {
		t.Fatal(err)
	}
	return u, s, club
}

// add is the operation that registers a player.
func add(name string) tournament.Op {
	return func(tm *tournament.Tournament) (tournament.Change, error) {
		return tm.AddPlayer(tournament.PlayerInput{Name: name})
	}
}

// helperEnv makes the test binary a director that adds players and raises
// a rating (TestTwoProcesses): "URL ID NAME COUNT".
const helperEnv = "OTD_POSTGRES_TEST_DIRECTOR"

func TestMain(m *testing.M) {
	if args := os.Getenv(helperEnv); args != "" {
		if err := director(strings.Fields(args)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// director makes count changes of tournament id, as fast as it can, each
// on what it reads: every other one adds a player (numbered after those
// there), the others raise player 1's rating by one. A change refused
// (ErrBusy) is tried again.
func director(args []string) error {
	id, _ := strconv.ParseInt(args[1], 10, 64)
	count, _ := strconv.Atoi(args[3])
	s, err := Open(args[0], Options{})
	if err != nil {
		return err
	}
	defer s.Close()
	d := app.New(s.App())
	ctx := context.Background()
	for i := range count {
		op := add(fmt.Sprintf("%s %d", args[2], i))
		if i%2 == 1 {
			op = func(tm *tournament.Tournament) (tournament.Change, error) {
				r := tm.Players[0].Rating + 1
				return tm.EditPlayer(1, tournament.PlayerEdit{Rating: &r})
			}
		}
		for {
			_, _, err := d.DoForTest(ctx, id, op)
			if err == nil {
				break
			}
			if !errors.Is(err, tournament.ErrBusy) {
				return fmt.Errorf("change %d: %w", i, err)
			}
		}
	}
	return nil
}

// TestTwoProcesses: two directors, two processes, change one tournament at
// once, 1,000 changes in all, each on what it reads (a player numbered
// after the others; a rating raised by one): no change is lost (every
// player there once, numbered in order; the rating raised 500 times; an
// audit entry each) and the tournament is whole.
func TestTwoProcesses(t *testing.T) {
	const each = 500
	u, s, club := newClub(t)
	d := app.New(s.App())
	ctx := context.Background()
	if _, _, err := d.DoForTest(ctx, club.ID, func(tm *tournament.Tournament) (tournament.Change, error) {
		return tm.AddPlayer(tournament.PlayerInput{Name: "Rated", Rating: 1000})
	}); err != nil {
		t.Fatal(err)
	}
	var procs []*exec.Cmd
	for _, name := range []string{"A", "B"} {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s %d %s %d", helperEnv, u, club.ID, name, each))
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		procs = append(procs, cmd)
	}
	for _, p := range procs {
		if err := p.Wait(); err != nil {
			t.Fatalf("a director: %v", err)
		}
	}
	tm, log, err := d.Log(ctx, club.ID)
	if err != nil {
		t.Fatal(err) // Log validates the tournament too
	}
	seen := map[string]bool{}
	for i, p := range tm.Players {
		if p.Number != i+1 || seen[p.Name] {
			t.Errorf("player %d: %+v: numbered out of order, or twice", i+1, p)
		}
		seen[p.Name] = true
	}
	if want := 1 + each; len(tm.Players) != want {
		t.Errorf("%d players; want %d", len(tm.Players), want)
	}
	if want := 1000 + each; tm.Players[0].Rating != want {
		t.Errorf("player 1's rating %d after %d raises from 1000; want %d: raises lost", tm.Players[0].Rating, each, want)
	}
	if want := 2 + 2*each; len(log) != want {
		t.Errorf("%d audit entries; want %d", len(log), want)
	}
}
