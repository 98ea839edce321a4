package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/otd-project/otd/tournament"
)

// Errors of Open and of the transactions, each given in one line that says
// what to do (see translate).
var (
	ErrURL         = errors.New("not a PostgreSQL URL")
	ErrNoServer    = errors.New("cannot reach the PostgreSQL server")
	ErrLogin       = errors.New("the server refused the login")
	ErrNoDatabase  = errors.New("no such database")
	ErrNoSchema    = errors.New("the database has no otd tables yet")
	ErrNotOTD      = errors.New("not an otd database")
	ErrNewerSchema = errors.New("the database was written by a newer otd")
	ErrPermission  = errors.New("permission denied")
	ErrDamaged     = errors.New("the database holds a value otd cannot read")
	ErrDiskFull    = errors.New("the server's disk is full")
	ErrLost        = errors.New("the connection to the server was lost")
	// ErrReadOnly and ErrBusy are the domain's (errors.Is finds
	// tournament.ErrReadOnly and tournament.ErrBusy in them), told apart
	// from SQLite's: their lines say what to do on a server.
	ErrReadOnly error = domainError{tournament.ErrReadOnly}
	ErrBusy     error = domainError{tournament.ErrBusy}
)

// domainError is one of the domain's errors as this store gives it.
type domainError struct{ error }

func (e domainError) Is(target error) bool { return target == e.error }

// sentinels are the errors translate gives.
var sentinels = []error{ErrURL, ErrNoServer, ErrLogin, ErrNoDatabase, ErrNoSchema, ErrNotOTD, ErrNewerSchema,
	ErrPermission, ErrDamaged, ErrDiskFull, ErrLost, ErrReadOnly, ErrBusy}

// translate turns the server's and the connection's errors that a director
// or a federation's IT volunteer must act on into one of the errors above,
// in one line with the database and what to do; other errors pass as they
// are, and so do those translated already.
func (s *Store) translate(err error) error {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	if translated(err) {
		return err
	}
	cfg := s.conn
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch code := pe.Code; {
		case code == "28P01":
			return fmt.Errorf("%s: %w: wrong password for user %q (or no such user): give the right one in the URL (postgres://USER:PASSWORD@HOST/DATABASE) or in ~/.pgpass", s.name, ErrLogin, cfg.User)
		case code == "28000":
			return fmt.Errorf("%s: %w: %s: the server's administrator must let user %q in (CREATE ROLE, pg_hba.conf)", s.name, ErrLogin, pe.Message, cfg.User)
		case code == "3D000":
			return fmt.Errorf("%s: %w: database %q does not exist on the server at %s:%d: create it (createdb -h %s -p %d -U %s %s), then 'otd tournament new' makes otd's tables in it",
				s.name, ErrNoDatabase, cfg.Database, cfg.Host, cfg.Port, cfg.Host, cfg.Port, cfg.User, cfg.Database)
		case code == "42501":
			return fmt.Errorf("%s: %w: %s: user %q needs the rights on database %q (its owner has them: ALTER DATABASE %s OWNER TO %s)",
				s.name, ErrPermission, pe.Message, cfg.User, cfg.Database, cfg.Database, cfg.User)
		case code == "53100":
			return fmt.Errorf("%s: %w and nothing was saved: the server's administrator must free some space", s.name, ErrDiskFull)
		case code == "40001", code == "40P01":
			return fmt.Errorf("%s: %w: another director changed it meanwhile and nothing was saved: try again", s.name, ErrBusy)
		case code == "55P03":
			return fmt.Errorf("%s: %w: another director has been changing this tournament for over %s and nothing was saved: try again",
				s.name, ErrBusy, s.lockWait)
		case code == "53300":
			return fmt.Errorf("%s: %w: the server has no free connection (%s): try again, or ask its administrator to raise max_connections",
				s.name, ErrBusy, pe.Message)
		case code == "25006":
			return fmt.Errorf("%s: %w: the server takes no changes (a standby?): commands that only read work", s.name, ErrReadOnly)
		case code == "57P01", code == "57P02", code == "57P03":
			return fmt.Errorf("%s: %w: %s: try again in a moment", s.name, ErrNoServer, pe.Message)
		case strings.HasPrefix(code, "08"):
			return s.lost(err)
		}
		return err
	}
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) {
		return fmt.Errorf("%s: %w at %s:%d (%v): is it running, and are the host and port right?", s.name, ErrNoServer, cfg.Host, cfg.Port, innermost(err))
	}
	var ne net.Error
	if errors.As(err, &ne) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return s.lost(err)
	}
	return err
}

func (s *Store) lost(err error) error {
	return fmt.Errorf("%s: %w (%v): if it was a change, 'otd log' shows whether it was saved", s.name, ErrLost, innermost(err))
}

// innermost returns the innermost error that err wraps, the first of
// several where it joins them: the system's reason, without pgx's words
// around it.
func innermost(err error) error {
	for {
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			if u.Unwrap() == nil {
				return err
			}
			err = u.Unwrap()
		case interface{ Unwrap() []error }:
			if len(u.Unwrap()) == 0 {
				return err
			}
			err = u.Unwrap()[0]
		default:
			return err
		}
	}
}

// translated tells whether err is one of translate's lines already.
func translated(err error) bool {
	for _, e := range sentinels {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}
