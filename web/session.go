package web

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/otd-project/otd/tournament"
)

// The director's sessions of the console. They are kept in memory, not
// signed into the cookie with the venue's secret: a session can then end
// (logging out, serve stopping) and a one-time link be used once, which a
// signed cookie cannot promise without a list kept in memory anyway; a
// restart asks the director to log in again, which costs a password.

// sessionLife is how long a session lasts; maxSessions are open at once at
// most, the oldest ending first (variables so that tests can change them).
var (
	sessionLife = 24 * time.Hour
	maxSessions = 64
)

const sessionCookie = "otd-console"

// session is a director's open session.
type session struct {
	name    string // shown in the log: "console session 3f2a"
	login   string // how it logged in, shown with it: "password from 127.0.0.1"
	expires time.Time
	flash   flash // what its last action did, for the next page
}

// sessions are the console's open sessions and its unused one-time links
// (the limits of login failures are the Server's logins).
type sessions struct {
	now func() time.Time

	mu   sync.Mutex
	open map[string]session // by the cookie's value
	once map[string]bool    // the one-time links' tokens not used yet
}

func newSessions(now func() time.Time) *sessions {
	return &sessions{now: now, open: map[string]session{}, once: map[string]bool{}}
}

// random is n random bytes in hexadecimal.
func random(n int) string {
	b := make([]byte, n)
	rand.Read(b) // never fails (crypto/rand)
	return hex.EncodeToString(b)
}

// oneTime makes a one-time login token (128 bits).
func (s *sessions) oneTime() string {
	tok := random(16)
	s.mu.Lock()
	s.once[tok] = true
	s.mu.Unlock()
	return tok
}

// useOnce reports whether tok is an unused one-time token, using it.
func (s *sessions) useOnce(tok string) bool {
	return s.findOnce(tok, true)
}

// valid reports whether tok is an unused one-time token, leaving it unused.
func (s *sessions) valid(tok string) bool {
	return s.findOnce(tok, false)
}

func (s *sessions) findOnce(tok string, use bool) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k := range s.once { // compared in constant time: there are few
		if subtle.ConstantTimeCompare([]byte(k), []byte(tok)) == 1 {
			if use {
				delete(s.once, k)
			}
			return true
		}
	}
	return false
}

// start opens a session that logged in as login says: its cookie's value
// and its name.
func (s *sessions) start(login string) (cookie, name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	taken := map[string]bool{}
	oldest := ""
	for k, v := range s.open {
		if now.After(v.expires) {
			delete(s.open, k)
			continue
		}
		taken[v.name] = true
		if oldest == "" || v.expires.Before(s.open[oldest].expires) {
			oldest = k
		}
	}
	if len(s.open) >= maxSessions {
		delete(s.open, oldest)
	}
	for name = random(2); taken[name]; name = random(2) {
	}
	cookie = random(32)
	s.open[cookie] = session{name: name, login: login, expires: now.Add(sessionLife)}
	return cookie, name
}

// of returns the session of r's cookie, if open.
func (s *sessions) of(r *http.Request) (session, bool) {
	c, err := r.Cookie(sessionCookie)
	if err != nil {
		return session{}, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.open[c.Value]
	if ok && s.now().After(v.expires) {
		delete(s.open, c.Value)
		return session{}, false
	}
	return v, ok
}

// setFlash keeps what r's session's last action did, for its next page.
func (s *sessions) setFlash(r *http.Request, f flash) {
	c, err := r.Cookie(sessionCookie)
	if err != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if v, ok := s.open[c.Value]; ok {
		v.flash = f
		s.open[c.Value] = v
	}
}

// end closes r's session, if any.
func (s *sessions) end(r *http.Request) {
	if c, err := r.Cookie(sessionCookie); err == nil {
		s.mu.Lock()
		delete(s.open, c.Value)
		s.mu.Unlock()
	}
}

// loopback reports whether r comes from this computer.
func loopback(r *http.Request) bool {
	ip := net.ParseIP(address(r))
	return ip != nil && ip.IsLoopback()
}

// session returns the director's session r comes with, as the actor of
// what it does: tournament.Actor{Kind: ByConsole, Session: its name,
// Login: how it logged in}. Every change of the session says how it logged
// in: the log then ties its name to its address and its way in, whichever
// of its changes are left once some are undone.
func (s *Server) session(r *http.Request) (tournament.Actor, bool) {
	v, ok := s.sessions.of(r)
	if !ok {
		return tournament.Actor{}, false
	}
	return tournament.Actor{Kind: tournament.ByConsole, Session: v.name, Login: v.login}, true
}
