// Package archive is a rating officer's archive of rated tournaments: a
// folder of .ELO files (the WOF's archive since 1977, or a federation's own)
// indexed into one database of tournaments, the players in them by WOF id
// (with every name and country a file gave them) and their games with their
// dates; and the World Othello rating list computed from it (package rating,
// RULES.md section 8), with the players' names.
//
// Indexing is incremental (Index): a new file adds its tournament, a file
// whose content changed (by its SHA-256) replaces it, a file gone is
// dropped, and a file that cannot be read is kept with the reason, so that
// it is reported until it is mended (and read again at each index: a newer
// reader may take it). The database is the Store interface's, which package
// store/sqlite implements (this package says what it needs, the store
// implements it, as tournament.Storage). The folder may also be read
// straight into memory (ReadDir), for a list computed without a database.
//
// Each file is read as 'otd import elo' reads it (ReadELO: elo.ReadWith,
// and the tournament built by the Build its caller hands over,
// interchange.ArchiveGames, with the same --lenient rules), by the
// commands as the rating list reads it (ListReading: a file's
// contradictions set aside and kept with the file, File.SetAside, its
// games counted); a file refused is reported with the reader's reason. The archive's domain, beside
// package tournament (DESIGN.md): of ours it imports the leaves and the
// file formats (elo for the file, rating for the list) and internal/txt,
// for names compared as the director's commands compare them (FoldName).
package archive

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/otd-project/otd/rating"
	"github.com/otd-project/otd/scoring"
)

// ErrNotFound is wrapped by the errors of a tournament or a player that the
// archive does not hold.
var ErrNotFound = errors.New("not in the archive")

// Tournament is one file's rated tournament.
type Tournament struct {
	ID    int64  // its id in the archive's database (0 until stored)
	File  string // the file's path below the folder indexed, '/'-separated
	Name  string // %%Tournament (the file's name when it has none)
	Place string // %%Country: where it was played
	// Start and End are its first and last days (%%Date: DD/MM/YYYY, or
	// DD/MM/YYYY - DD/MM/YYYY); End is Start for a one-day event. The
	// rating list dates its games by Start, the day the WOF's file names
	// give a tournament.
	Start, End time.Time
	Rounds     int     // Swiss rounds
	Players    []Entry // the published standings, in their order
	Games      []Game  // the Swiss rounds' games in order, then those added after them
	// Notes are what reading the file noted (ReadELO), not stored: a file
	// read as Windows-1252, a name cleaned.
	Notes []string
	// SetAside are the file's contradictions that its reading set aside,
	// each with its line (the file's File.SetAside).
	SetAside []string
}

// Entry is a player in a tournament's standings, as the file writes them.
type Entry struct {
	Rank        int // place in the published standings, from 1
	ID          int // WOF id
	New         bool
	Last, First string
	Country     string
	Score       scoring.HalfPoints
	Discs       int
	Rating      int // the rating the file publishes; 0: none
}

// Name is the entry's name as the rating list writes it: "LAST, First".
func (e Entry) Name() string {
	if e.First == "" {
		return e.Last
	}
	return e.Last + ", " + e.First
}

// Game is a rated game: black and white by WOF id and black's result. Discs
// are known (HasDiscs) when the file gives them; a file of the 1970s may
// give the result only.
type Game struct {
	Round                  int // the Swiss round, from 1; 0 for a game added after the Swiss rounds
	Black, White           int
	HasDiscs               bool
	BlackDiscs, WhiteDiscs int
	Result                 rating.Result // black's: win, draw or loss
}

// File is a file of the folder as the archive last read it.
type File struct {
	Path string // below the folder indexed, '/'-separated
	Hash string // SHA-256 of its content, hex
	Size int64
	// Reading is how it was read (Reading.String): a file read otherwise
	// since is read again.
	Reading string
	// Problem is why it could not be read ("" when its tournament is
	// indexed): the reader's reason with the line, no day, or a copy of a
	// file indexed already.
	Problem string
	// SetAside are the contradictions of a file indexed that its reading
	// set aside rather than refuse the file (ListReading), each with its
	// line: a sign against the discs, a player paired twice in a round or
	// listed twice, a published figure the games do not give, a game
	// dropped.
	SetAside []string
	// CopyOf is, for a file not read because it repeats the games of
	// another (Problem says so), that file's path: its games count once,
	// from there. "" for a file read or refused.
	CopyOf     string
	Tournament int64 // its tournament's id; 0 with a problem
	// Games is the fingerprint of its tournament's games (GamesHash): a
	// file with the games of another is a copy of it.
	Games string
}

// GamesHash is the SHA-256, hex, of games in order (round, players, discs,
// result): the same for two files of the same games, whatever their names
// and headers.
func GamesHash(games []Game) string {
	h := sha256.New()
	var b []byte
	for _, g := range games { // "%d %d %d %t %d %d %d\n", without fmt: the archive has 390,000 games
		b = strconv.AppendInt(b[:0], int64(g.Round), 10)
		for _, v := range []int{g.Black, g.White} {
			b = strconv.AppendInt(append(b, ' '), int64(v), 10)
		}
		b = strconv.AppendBool(append(b, ' '), g.HasDiscs)
		for _, v := range []int{g.BlackDiscs, g.WhiteDiscs, int(g.Result)} {
			b = strconv.AppendInt(append(b, ' '), int64(v), 10)
		}
		h.Write(append(b, '\n'))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Indexed is a file read, with its tournament, or its problem.
type Indexed struct {
	File       File
	Tournament *Tournament // nil with a problem
}

// Summary is a tournament without its standings and games, as a list gives
// it.
type Summary struct {
	ID                     int64
	File                   string
	Name, Place            string
	Start, End             time.Time
	Rounds, Players, Games int
	// Entry is the player's line in its standings, when the list is of one
	// player's tournaments (Filter.Player); nil otherwise, or when the
	// player plays in the file's games but is not in its standings.
	Entry *Entry
}

// Filter chooses tournaments: zero fields choose all.
type Filter struct {
	Player   int       // those in whose standings or games the player is
	From, To time.Time // those starting on or after From, on or before To
}

// Seen is a name and country the archive's files give a player, and in
// which tournaments: the first and last days they were seen so.
type Seen struct {
	Last, First, Country string
	From, To             time.Time // the Start of the first and last of those tournaments
	Tournaments          int
}

// Name is the name as the rating list writes it: "LAST, First".
func (s Seen) Name() string { return Entry{Last: s.Last, First: s.First}.Name() }

// Person is a player of the archive by WOF id, with every name and country
// seen, oldest first (by their last day seen; the latest last).
type Person struct {
	ID    int
	Names []Seen
}

// Latest is the name and country of the player's latest tournament (zero
// for a player who is in games but in no standings).
func (p Person) Latest() Seen {
	if len(p.Names) == 0 {
		return Seen{}
	}
	return p.Names[len(p.Names)-1]
}

// LatestAt is the name and country the player went by at the day at: of
// their latest tournament up to that day (Latest if none is).
func (p Person) LatestAt(at time.Time) Seen {
	for i := len(p.Names) - 1; i >= 0; i-- {
		if !p.Names[i].From.After(at) {
			return p.Names[i]
		}
	}
	return p.Latest()
}

// ListName is the player's name at the day at as the rating list writes
// it: "SURNAME, Given", from their latest tournament up to that day
// (LatestAt), the surname in capitals and the given name as written, but
// where that file writes it all in lower or all in capital letters
// ("keisuke"), as another file of theirs writes it in both ("Keisuke"), the
// latest such, else with a capital at the start of each word ("Keisuke",
// "Jan-Willem", "A.F."): the list writes no given name in one case.
func (p Person) ListName(at time.Time) string {
	s := p.LatestAt(at)
	first := s.First
	if oneCase(first) {
		first = titleCase(first)
		for i := len(p.Names) - 1; i >= 0; i-- {
			if f := p.Names[i].First; !oneCase(f) && strings.EqualFold(f, s.First) {
				first = f
				break
			}
		}
	}
	return Entry{Last: strings.ToUpper(s.Last), First: first}.Name()
}

// oneCase tells whether s has letters all of one case.
func oneCase(s string) bool { return s == strings.ToLower(s) || s == strings.ToUpper(s) }

// titleCase is s with a capital at the start of each word (after a space, a
// hyphen, an apostrophe or a full stop) and small letters elsewhere.
func titleCase(s string) string {
	r := []rune(strings.ToLower(s))
	for i := range r {
		if i == 0 || strings.ContainsRune(" -'.", r[i-1]) {
			r[i] = unicode.ToUpper(r[i])
		}
	}
	return string(r)
}

// Played is a game with its tournament.
type Played struct {
	Game
	Tournament int64
	Name       string    // the tournament's
	Start      time.Time // the tournament's
}

// Store is the archive's database. Update runs in one transaction: a crash
// leaves the database as it was before the index or after it. The methods
// are few and plain so that another engine can implement them (a store per
// engine under store/, as for tournament.Storage).
type Store interface {
	// Files returns every file indexed or refused, by path.
	Files(ctx context.Context) ([]File, error)
	// Update drops the files of remove (paths) with their tournaments, and
	// puts each of put: its file, and its tournament if it has one, in
	// place of what the archive held for that path.
	Update(ctx context.Context, remove []string, put []Indexed) error
	// Tournaments returns the tournaments that f chooses, by Start then
	// file.
	Tournaments(ctx context.Context, f Filter) ([]Summary, error)
	// Tournament returns one tournament whole; an error wrapping
	// ErrNotFound if there is none of that id.
	Tournament(ctx context.Context, id int64) (*Tournament, error)
	// People returns the players of these ids (every player of the
	// archive's standings and games with none), by id, with the names seen;
	// a player without an id (0) is none.
	People(ctx context.Context, ids ...int) ([]Person, error)
	// Games returns the games of a player (against opponent, if not 0), by
	// their tournament's Start, then tournament, then order in the file.
	Games(ctx context.Context, player, opponent int) ([]Played, error)
	// RatingGames returns every game as the rating list takes it: the
	// players, black's result, the tournament's Start; a game of a player
	// without an id (0) is left out.
	RatingGames(ctx context.Context) ([]rating.Game, error)
	// Starts returns the first day of every tournament, in no order.
	Starts(ctx context.Context) ([]time.Time, error)
}
