package archive

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/otd-project/otd/elo"
	"github.com/otd-project/otd/internal/userfile"
)

// Options are how a folder is read.
type Options struct {
	Reading Reading // how each file is read
	// Build builds each file's tournament (interchange.ArchiveGames, as
	// 'otd import elo' does): required.
	Build Build
	// Again reads every file again, not only the new, changed and refused
	// ones and those read otherwise (after an upgrade of otd that reads a
	// file otherwise).
	Again bool
	// Drop lets an index drop more than half of the tournaments indexed
	// (their files not in the folder): without it, that is refused
	// (ErrDropMost), as a subfolder or another folder indexed by mistake.
	Drop bool
}

// ErrDropMost is wrapped by the error of an index that would drop more than
// half of the archive's tournaments.
var ErrDropMost = errors.New("most of the archive would be dropped")

// Report is what Index did.
type Report struct {
	Files     int      // the .ELO files of the folder
	Added     []string // paths of the files whose tournament is new to the archive
	Replaced  []string // of the files whose content changed, their tournament replaced
	Removed   []string // of the files gone from the folder, or now refused, their tournament dropped
	Unchanged int      // files read before and not changed
	// Problems are every file of the folder that could not be read, with
	// why, by path: those refused before as well as the new ones.
	Problems []File
	Games    int // the games of the tournaments added and replaced
	// Notes are what reading the files read noted (Tournament.Notes), by
	// path: a file read as Windows-1252, a name cleaned.
	Notes map[string][]string
}

// ErrNoFiles is wrapped by the error of a folder without an .ELO file:
// indexing it would drop the whole archive.
var ErrNoFiles = errors.New("no .ELO file")

// Index brings the archive up to date with the folder dir and its
// subfolders: every file named *.ELO (any case) is read if it is new,
// changed (its SHA-256), was refused before or read otherwise (another
// o.Reading), or every file with o.Again; a file gone is dropped; the changes are saved in one Update. A
// file with the same content as one indexed (a copy under another name) is
// refused: its games would count twice. A folder without an .ELO file is
// refused (ErrNoFiles), and nothing changes. Only a regular file (a link
// to one is followed) of at most elo.MaxSize bytes is read: a named
// pipe, a device or a larger file is listed with the problem, unread.
func Index(ctx context.Context, st Store, dir string, o Options) (*Report, error) {
	files, err := st.Files(ctx)
	if err != nil {
		return nil, err
	}
	known := make(map[string]File, len(files))
	for _, f := range files {
		known[f.Path] = f
	}
	sc, err := scan(dir, known, o)
	if err != nil {
		return nil, err
	}
	rep := &Report{Files: sc.files, Unchanged: sc.unchanged, Problems: sc.problems, Notes: sc.notes()}
	var put []Indexed
	for _, in := range sc.read {
		old, seen := known[in.File.Path]
		switch {
		case in.Tournament == nil && seen && old.Problem == in.File.Problem && old.Hash == in.File.Hash:
			continue // refused again, for the same reason
		case in.Tournament == nil && seen && old.Problem == "":
			rep.Removed = append(rep.Removed, in.File.Path)
		case in.Tournament != nil && !seen, in.Tournament != nil && old.Problem != "":
			rep.Added = append(rep.Added, in.File.Path)
		case in.Tournament != nil && old.Hash == in.File.Hash: // read again (Again)
			rep.Unchanged++
		case in.Tournament != nil:
			rep.Replaced = append(rep.Replaced, in.File.Path)
		}
		if in.Tournament != nil {
			rep.Games += len(in.Tournament.Games)
		}
		put = append(put, in)
	}
	var remove []string
	indexed, gone := 0, 0
	for _, f := range files {
		if f.Problem == "" {
			indexed++
		}
		if !sc.onDisk[f.Path] {
			remove = append(remove, f.Path)
			if f.Problem == "" {
				rep.Removed = append(rep.Removed, f.Path)
				gone++
			}
		}
	}
	if gone > 0 && 2*gone > indexed && !o.Drop {
		return nil, fmt.Errorf("%s: %w: %d of its %d tournaments have no file under this folder (%s...): index the archive's own folder (paths are kept relative to it), or --drop to drop them",
			dir, ErrDropMost, gone, indexed, rep.Removed[0])
	}
	slices.Sort(rep.Removed)
	if len(remove) > 0 || len(put) > 0 {
		if err := st.Update(ctx, remove, put); err != nil {
			return nil, err
		}
	}
	return rep, nil
}

// Folder is a folder of .ELO files read into memory (ReadDir): the rating
// list computed straight from it, without a database.
type Folder struct {
	Files       int // the .ELO files of the folder
	Tournaments []*Tournament
	Problems    []File // the files that could not be read, with why
	// Notes are what reading the files noted (Tournament.Notes), by path,
	// as Report's.
	Notes map[string][]string
}

// ReadDir reads every .ELO file of the folder dir and its subfolders, as
// Index does (a copy of a file read is refused); o.Again does not matter.
func ReadDir(dir string, o Options) (*Folder, error) {
	sc, err := scan(dir, nil, o)
	if err != nil {
		return nil, err
	}
	f := &Folder{Files: sc.files, Problems: sc.problems, Notes: sc.notes()}
	for _, in := range sc.read {
		if in.Tournament != nil {
			f.Tournaments = append(f.Tournaments, in.Tournament)
		}
	}
	return f, nil
}

// scanned is a folder compared with what the archive knows of it.
type scanned struct {
	files, unchanged int
	onDisk           map[string]bool
	read             []Indexed // the files read, in path order, each with its tournament or its problem
	problems         []File    // every file refused, in path order
}

// notes are what reading the files read noted, by path (nil if nothing).
func (sc *scanned) notes() map[string][]string {
	var notes map[string][]string
	for _, in := range sc.read {
		if in.Tournament != nil && len(in.Tournament.Notes) > 0 {
			if notes == nil {
				notes = map[string][]string{}
			}
			notes[in.File.Path] = in.Tournament.Notes
		}
	}
	return notes
}

// scan reads the .ELO files of dir that are not in known with the same
// content and reading, and no problem (all of them with o.Again), in path
// order, on as many cores as Go may use.
func scan(dir string, known map[string]File, o Options) (*scanned, error) {
	if o.Build == nil {
		return nil, errors.New("archive: Options.Build is nil: the archive needs the builder of tournaments (interchange.ArchiveGames) to read a file")
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("the archive's folder: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("the archive's folder: %s is not a folder; name the folder of the .ELO files", dir)
	}
	type pending struct {
		data []byte
		err  error
		in   Indexed
	}
	var todo []*pending
	// The files are read while the walk goes on, on as many cores as Go
	// may use.
	work := make(chan *pending, 64)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range work {
				if p.err == nil {
					p.in.Tournament, p.err = ReadELO(p.in.File.Path, p.data, o.Reading, o.Build)
				}
				if p.err == nil && len(p.in.Tournament.Games) > 0 {
					p.in.File.Games = GamesHash(p.in.Tournament.Games)
				}
				p.data = nil
			}
		}()
	}
	sc := &scanned{onDisk: map[string]bool{}}
	reading := o.Reading.String()
	indexed := map[string]string{} // hash: path of a file whose tournament is indexed
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.EqualFold(filepath.Ext(p), ".elo") {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		sc.files++
		sc.onDisk[rel] = true
		data, err := userfile.ReadFile(p, elo.MaxSize)
		if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
			err = pe.Err // the problem is listed with the file's path
		}
		sum := sha256.Sum256(data)
		f := File{Path: rel, Hash: hex.EncodeToString(sum[:]), Size: int64(len(data)), Reading: reading}
		if old, ok := known[rel]; ok && err == nil && old.Hash == f.Hash && old.Reading == reading && old.Problem == "" && old.Games != "" && !o.Again {
			sc.unchanged++
			indexed[f.Hash], indexed[old.Games] = rel, rel // Games is not "" here
			return nil
		}
		next := &pending{data: data, err: err, in: Indexed{File: f}}
		todo = append(todo, next)
		work <- next
		return nil
	})
	close(work)
	wg.Wait()
	if err != nil {
		return nil, fmt.Errorf("reading the archive's folder: %w", err)
	}
	if sc.files == 0 {
		return nil, fmt.Errorf("%s: %w in the folder or below it (the archive's files are named *.ELO)", dir, ErrNoFiles)
	}
	for _, p := range todo { // in path order: the first of two copies is indexed
		in := p.in
		if first, ok := indexed[in.File.Hash]; ok && p.err == nil {
			p.err, in.File.CopyOf = fmt.Errorf("the same content as %s: a copy, whose games would count twice; delete one", first), first
		} else if first, ok := indexed[in.File.Games]; ok && p.err == nil && in.File.Games != "" {
			p.err, in.File.CopyOf = fmt.Errorf("the same games as %s (another name or header): a copy, whose games would count twice; delete one", first), first
		}
		if p.err == nil {
			in.File.SetAside = p.in.Tournament.SetAside
		}
		if p.err != nil {
			in.File.Problem, in.File.Games, in.File.SetAside, in.Tournament = p.err.Error(), "", nil, nil
			sc.problems = append(sc.problems, in.File)
		} else {
			indexed[in.File.Hash] = in.File.Path
			if in.File.Games != "" {
				indexed[in.File.Games] = in.File.Path
			}
		}
		sc.read = append(sc.read, in)
	}
	return sc, nil
}
