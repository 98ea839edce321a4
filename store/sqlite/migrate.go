package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/otd-project/otd/tournament"
	// the database/sql driver "sqlite"
)

//go:embed migrations/*.sql
var embedded embed.FS

// migrations are the schema's steps, migrations/NNNN_name.sql in order (a
// variable so that tests can add a step, as a later otd would).
var migrations fs.FS = embedded

//go:embed migrations_archive/*.sql
var archiveMigrations embed.FS

// applicationID marks an otd database in the SQLite header ("otd1");
// archiveID an otd archive ("otda", OpenArchive).
const (
	applicationID = 0x6f746431
	archiveID     = 0x6f746461
)

// schema is a kind of otd database: the mark in its header and its
// migrations, dir/NNNN_name.sql in order, with their steps in Go.
type schema struct {
	appID   int
	fsys    *fs.FS
	dir     string
	steps   map[string]func(*sql.Tx) error
	notOurs error  // the error of a file that is not of this kind
	kind    string // what it is, for the message of a file of the other kind
}

var (
	tournamentSchema = schema{appID: applicationID, fsys: &migrations, dir: "migrations", steps: goSteps, notOurs: ErrNotOTD,
		kind: "an otd tournament database"}
	archiveFS     fs.FS = archiveMigrations
	archiveSchema       = schema{appID: archiveID, fsys: &archiveFS, dir: "migrations_archive", notOurs: ErrNotArchive,
		kind: "an otd archive ('otd archive index')"}
	schemas = []*schema{&tournamentSchema, &archiveSchema}
)

// migrate checks that the file is of s's kind and upgrades its schema to
// the latest, or to schema upTo where upTo >= 0 (a reference, checkSchema).
func (s *Store) migrate(create bool, upTo int) error {
	sch := s.schema
	var appID, version, tables int
	// One statement, so that the three come from one state of the file even
	// while another otd creates it.
	err := s.db.QueryRow(`SELECT (SELECT application_id FROM pragma_application_id),
		(SELECT user_version FROM pragma_user_version), (SELECT count(*) FROM sqlite_master)`).Scan(&appID, &version, &tables)
	if err != nil {
		if d := s.translate(err); d != err {
			return d
		}
		return fmt.Errorf("%s: %w", s.path, err)
	}
	// A file is otd's once its header says so. Only Create makes a file otd's,
	// and only a blank one: no table, no owner, no schema version.
	switch {
	case appID == sch.appID:
	case tables > 0 || appID != 0 || version != 0:
		for _, other := range schemas {
			if appID == other.appID {
				return fmt.Errorf("%s: %w: it is %s", s.path, sch.notOurs, other.kind)
			}
		}
		return fmt.Errorf("%s: %w: it belongs to another program", s.path, sch.notOurs)
	case !create:
		return fmt.Errorf("%s: %w: an SQLite database with no otd tables, perhaps another program's", s.path, sch.notOurs)
	}
	names, err := fs.Glob(*sch.fsys, sch.dir+"/*.sql")
	if err != nil {
		return err
	}
	sort.Strings(names)
	if upTo >= 0 {
		names = names[:min(upTo, len(names))]
	}
	if version > len(names) {
		return fmt.Errorf("%s: %w (schema %d; this otd knows up to %d)", s.path, ErrNewerSchema, version, len(names))
	}
	if s.readOnly && version < len(names) {
		return fmt.Errorf("%s: %w: it was written by an older otd (schema %d) and %w (schema %d) before reading it",
			s.path, ErrReadOnly, version, tournament.ErrUpgrade, len(names))
	}
	if s.checkFirst {
		// A backup: sound as it is, before it is upgraded.
		if err := s.IntegrityCheck(); err != nil {
			return err
		}
		if err := checkSchema(context.Background(), s.db, sch); err != nil {
			return fmt.Errorf("%s: %w", s.path, s.translate(err))
		}
	}
	for i := version; i < len(names); i++ {
		src, err := fs.ReadFile(*sch.fsys, names[i])
		if err != nil {
			return err
		}
		err = s.tx(context.Background(), func(tx *sql.Tx) error {
			// Another otd may have upgraded the file since it was read: look
			// again, inside the write transaction.
			if err := tx.QueryRow("PRAGMA user_version").Scan(&version); err != nil || version > i {
				return err
			}
			if _, err := tx.Exec(string(src)); err != nil {
				return fmt.Errorf("migration %s: %w", names[i], err)
			}
			if step := sch.steps[path.Base(names[i])]; step != nil {
				if err := step(tx); err != nil {
					return fmt.Errorf("migration %s: %w", names[i], err)
				}
			}
			_, err := tx.Exec(fmt.Sprintf("PRAGMA application_id = %d; PRAGMA user_version = %d", sch.appID, i+1))
			return err
		})
		if err != nil {
			if translated(err) {
				return err
			}
			return fmt.Errorf("%s: upgrading the schema: %w", s.path, err)
		}
	}
	return nil
}

// goSteps are the parts of migrations that SQL cannot do, by the file they
// follow (run in its transaction, after its SQL).
var goSteps = map[string]func(*sql.Tx) error{
	"0010_name_key.sql":     fillNameKeys,
	"0011_papp_country.sql": keepPappCountry,
}

// keepPappCountry writes the compatriots' cost that the papp model had
// before schema 11 (2 in round 1, 0 after) into every papp model that does
// not set it, so that a tournament keeps the model it was paired with.
func keepPappCountry(tx *sql.Tx) error {
	rows, err := tx.Query("SELECT id, pairing FROM tournament")
	if err != nil {
		return err
	}
	models := map[int64]string{}
	for rows.Next() {
		var id int64
		var m string
		if err := rows.Scan(&id, &m); err != nil {
			rows.Close()
			return err
		}
		models[id] = m
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for id, m := range models {
		if tournament.PairingModel(m).Preset() != tournament.PairingPapp || strings.Contains(m, "country=") {
			continue
		}
		kept, err := tournament.ParsePairingModel(m + ",country=2/0")
		if err != nil {
			return fmt.Errorf("tournament %d: pairing model %q: %w", id, m, err)
		}
		if _, err := tx.Exec("UPDATE tournament SET pairing = ? WHERE id = ?", string(kept), id); err != nil {
			return err
		}
	}
	return nil
}

// fillNameKeys writes the name key of every tournament (schema 10); two
// whose names are equal but for case, which no otd made, are refused by
// the unique index, named.
func fillNameKeys(tx *sql.Tx) error {
	rows, err := tx.Query("SELECT id, name FROM tournament ORDER BY id")
	if err != nil {
		return err
	}
	names := map[int64]string{}
	var ids []int64
	for rows.Next() {
		var id int64
		var name string
		if err := rows.Scan(&id, &name); err != nil {
			rows.Close()
			return err
		}
		names[id] = name
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	seen := map[string]int64{}
	for _, id := range ids {
		key := tournament.NameKey(names[id])
		if other, ok := seen[key]; ok {
			return fmt.Errorf("tournaments %d (%q) and %d (%q) have the same name but for case: rename one with an otd of schema 9", other, names[other], id, names[id])
		}
		seen[key] = id
		if _, err := tx.Exec("UPDATE tournament SET name_key = ? WHERE id = ?", key, id); err != nil {
			return err
		}
	}
	return nil
}
