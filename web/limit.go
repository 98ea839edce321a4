package web

import (
	"net"
	"net/http"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// limits are a limiter's bounds: each address's requests, each address's
// failures, and the failures of all addresses; with everyone, a spent
// overall bound refuses every address, not only those that failed.
type limits struct {
	requestRate, failRate, allFailRate    rate.Limit
	requestBurst, failBurst, allFailBurst int
	everyone                              bool
}

// The limits of the token routes and of the console's logins (variables so
// that tests can change them), and the addresses a limiter remembers at
// once.
//
// A report token's printed part has 65 bits (app.TokenShort): with
// failures held to 600 a minute overall, a 3-day event allows 2.6 million
// guesses, which with ~500 live tokens find one with probability about
// 3.5e-11 (app/token.go). A player who never mistyped a code is not
// refused for others' guesses.
//
// A wrong password (or one-time link) costs 10 a minute per address after
// 5 at once, 600 a minute in all after 60 at once; while the overall bound
// is spent every login is refused unchecked (a password has no 65 random
// bits), but for two that guesses from the room cannot lock out: a login
// from this computer (loopback: the director at the laptop), and a valid
// one-time link (128 random bits, used once). Each still counts against its
// own address's bound.
var (
	tokenLimits = limits{
		requestRate: rate.Every(time.Second / 2), requestBurst: 30,
		failRate: rate.Every(6 * time.Second), failBurst: 10,
		allFailRate: rate.Every(100 * time.Millisecond), allFailBurst: 60,
	}
	loginLimits = limits{
		requestRate: rate.Every(time.Second / 2), requestBurst: 30,
		failRate: rate.Every(6 * time.Second), failBurst: 5,
		allFailRate: rate.Every(100 * time.Millisecond), allFailBurst: 60,
		everyone: true,
	}
	maxAddresses = 4096
)

// limiter slows a kind of route down (limits): each address's writes,
// each address's failures (an unknown token, a wrong password), and the
// failures of all addresses. An address that failed is refused while the
// overall bound is spent (with everyone, any address is), so that guesses
// spread over many addresses are bounded too. Its clock is injected
// (Server's now): tests do not sleep.
type limiter struct {
	limits
	now   func() time.Time
	mu    sync.Mutex
	addrs map[string]*addressLimits
	fails *rate.Limiter // all addresses' failures
}

// addressLimits are an address's limits, and whether it ever failed.
type addressLimits struct {
	requests, fails *rate.Limiter
	failed          bool
}

func newLimiter(now func() time.Time, l limits) *limiter {
	return &limiter{limits: l, now: now, addrs: map[string]*addressLimits{}, fails: rate.NewLimiter(l.allFailRate, l.allFailBurst)}
}

// of returns addr's limits, with l.mu held: a new address's when fewer than
// maxAddresses are remembered once those at rest (their limits full) are
// forgotten; else those of every address beyond them, shared.
func (l *limiter) of(addr string, now time.Time) *addressLimits {
	if a, ok := l.addrs[addr]; ok {
		return a
	}
	if len(l.addrs) >= maxAddresses {
		for k, a := range l.addrs {
			if a.requests.TokensAt(now) >= float64(l.requestBurst) && a.fails.TokensAt(now) >= float64(l.failBurst) {
				delete(l.addrs, k)
			}
		}
		if len(l.addrs) >= maxAddresses {
			addr = "" // the overflow's, shared
			if a, ok := l.addrs[addr]; ok {
				return a
			}
		}
	}
	a := &addressLimits{requests: rate.NewLimiter(l.requestRate, l.requestBurst), fails: rate.NewLimiter(l.failRate, l.failBurst)}
	l.addrs[addr] = a
	return a
}

// allow reports whether addr may make a request now, whose failures are
// not spent; a write spends one of its requests too. A read (a phone's
// page, reloaded at each change of the event while it waits) costs only
// when it fails (an unknown code): guessing stays as slow, and a phone
// that follows a rush is not refused. An exempt request (a login from
// this computer, or with a valid one-time link) is not held to the
// overall bound, only to its address's.
func (l *limiter) allow(addr string, write, exempt bool) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	a := l.of(addr, now)
	return (!write || a.requests.AllowN(now, 1)) && a.fails.TokensAt(now) >= 1 && (exempt || !(a.failed || l.everyone) || l.fails.TokensAt(now) >= 1)
}

// fail counts a failure of addr: an unknown token, a wrong password.
func (l *limiter) fail(addr string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	a := l.of(addr, now)
	a.failed = true
	a.fails.AllowN(now, 1)
	l.fails.AllowN(now, 1)
}

// address is the address a request comes from (no proxy stands between
// the phones and serve: a header's claim is not read).
func address(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
