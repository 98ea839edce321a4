package testenv

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// PostgresEnv names the PostgreSQL server of the tests: the URL of a
// database on it whose user may create databases. 'make test' starts a
// throw-away server and sets it.
const PostgresEnv = "OTD_TEST_POSTGRES"

// Postgres returns the URL of a new, empty database on the test server
// (PostgresEnv), dropped when the test ends. Without a server it skips the
// test, saying why (and fails it under CI: Missing).
func Postgres(tb testing.TB) string {
	tb.Helper()
	NeedPostgres(tb)
	u, drop, err := NewPostgresDB()
	if err != nil {
		Missing(tb, err.Error())
	}
	tb.Cleanup(drop)
	return u
}

// NeedPostgres skips tb, saying why, when no PostgreSQL server is given
// (PostgresEnv), and fails it under CI (Missing).
func NeedPostgres(tb testing.TB) {
	tb.Helper()
	if os.Getenv(PostgresEnv) == "" {
		Missing(tb, "a PostgreSQL server: "+PostgresEnv+" is not set ('make test' starts one and sets it)")
	}
}

// NewPostgresDB makes a new, empty database on the test server
// (PostgresEnv) and returns its URL and the function that drops it.
func NewPostgresDB() (string, func(), error) {
	admin := os.Getenv(PostgresEnv)
	if admin == "" {
		return "", nil, fmt.Errorf("a PostgreSQL server: %s is not set ('make test' starts one and sets it)", PostgresEnv)
	}
	u, err := url.Parse(admin)
	if err != nil {
		return "", nil, fmt.Errorf("%s: not a URL: %v", PostgresEnv, err)
	}
	name := "otd_test_" + strings.ToLower(rand.Text()[:12])
	exec := func(sql string) error {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, admin)
		if err != nil {
			return fmt.Errorf("the PostgreSQL server of %s: %v", PostgresEnv, err)
		}
		defer conn.Close(ctx)
		_, err = conn.Exec(ctx, sql)
		return err
	}
	// FILE_COPY copies the template's files, three times as fast as
	// PostgreSQL 15's default; older servers know only that way.
	if err := exec("CREATE DATABASE " + name + " STRATEGY FILE_COPY"); err != nil {
		if err := exec("CREATE DATABASE " + name); err != nil {
			return "", nil, fmt.Errorf("creating a test database: %w", err)
		}
	}
	u.Path = "/" + name
	return u.String(), func() { exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)") }, nil
}
