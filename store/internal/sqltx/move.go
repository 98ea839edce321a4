package sqltx

import (
	"cmp"
	"fmt"
	"github.com/otd-project/otd/app"
	"slices"
	"strings"
)

// tables are otd's tables and their primary keys, in the order Replace
// writes them (a tournament before its players, players before their games).
var tables = []struct {
	name string
	key  []string
}{
	{"tournament", []string{"id"}},
	{"player", []string{"tournament_id", "number"}},
	{"game", []string{"tournament_id", "round", "board"}},
	{"forbidden_pair", []string{"tournament_id", "a", "b"}},
	{"round_rules", []string{"tournament_id", "round"}},
	{"venue_keys", []string{"tournament_id"}},
	{"report", []string{"tournament_id", "round", "board", "match", "game", "side"}},
	{"audit", []string{"id"}},
	{"setting", []string{"key"}},
}

// Tables reads every table of otd's whole, through q, a transaction that
// sees the database at one moment: columns in order of name, rows in order
// of primary key (compared in Go, whatever the engine's collation), each
// value an int64, a string or nil.
func Tables(q Querier) ([]app.Table, error) {
	var out []app.Table
	for _, tb := range tables {
		t, err := table(q, tb.name, tb.key)
		if err != nil {
			return nil, fmt.Errorf("reading table %s: %w", tb.name, err)
		}
		out = append(out, t)
	}
	return out, nil
}

func table(q Querier, name string, key []string) (app.Table, error) {
	t := app.Table{Name: name}
	rows, err := q.Query("SELECT * FROM " + name)
	if err != nil {
		return t, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return t, err
	}
	// order[i] is the column, in the query's order, of the i-th by name.
	order := make([]int, len(cols))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(cols[a], cols[b]) })
	for _, i := range order {
		t.Columns = append(t.Columns, cols[i])
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return t, err
		}
		row := make([]any, len(cols))
		for k, i := range order {
			if row[k], err = neutral(vals[i]); err != nil {
				return t, fmt.Errorf("column %s: %w", cols[i], err)
			}
		}
		t.Rows = append(t.Rows, row)
	}
	if err := rows.Err(); err != nil {
		return t, err
	}
	var keyCols []int
	for _, k := range key {
		i := slices.Index(t.Columns, k)
		if i < 0 {
			return t, fmt.Errorf("no column %s", k)
		}
		keyCols = append(keyCols, i)
	}
	slices.SortFunc(t.Rows, func(a, b []any) int {
		for _, i := range keyCols {
			if c := compare(a[i], b[i]); c != 0 {
				return c
			}
		}
		return 0
	})
	return t, nil
}

// neutral is a value as a Table holds it: an int64, a string or nil.
func neutral(v any) (any, error) {
	switch v := v.(type) {
	case nil, int64, string:
		return v, nil
	case int32:
		return int64(v), nil
	case int:
		return int64(v), nil
	case []byte:
		return string(v), nil
	}
	return nil, fmt.Errorf("a value of type %T, which otd's tables do not hold", v)
}

// compare orders two values of a key: nil first, then numbers, then text.
func compare(a, b any) int {
	rank := func(v any) int {
		switch v.(type) {
		case nil:
			return 0
		case int64:
			return 1
		}
		return 2
	}
	if c := cmp.Compare(rank(a), rank(b)); c != 0 {
		return c
	}
	switch a := a.(type) {
	case int64:
		return cmp.Compare(a, b.(int64))
	case string:
		return strings.Compare(a, b.(string))
	}
	return 0
}

func known(name string) bool {
	for _, tb := range tables {
		if tb.name == name {
			return true
		}
	}
	return false
}

// Replace replaces the content of every table of otd's with tables, through
// q, a write transaction, and returns the number of tournaments written. A
// table or a column that otd does not know is refused.
func Replace(q Querier, in []app.Table) (int, error) {
	byName := map[string]app.Table{}
	for _, t := range in {
		if !known(t.Name) {
			return 0, fmt.Errorf("the copy has a table %q, which this otd does not know", t.Name)
		}
		byName[t.Name] = t
	}
	// What is there goes first, the tables that refer to others first.
	for i := len(tables) - 1; i >= 0; i-- {
		if _, err := q.Exec("DELETE FROM " + tables[i].name); err != nil {
			return 0, fmt.Errorf("emptying table %s: %w", tables[i].name, err)
		}
	}
	for _, tb := range tables {
		t := byName[tb.name]
		if len(t.Rows) == 0 {
			continue
		}
		query := "INSERT INTO " + t.Name + " (" + strings.Join(t.Columns, ", ") + ") VALUES (?" + strings.Repeat(", ?", len(t.Columns)-1) + ")"
		for _, row := range t.Rows {
			if len(row) != len(t.Columns) {
				return 0, fmt.Errorf("table %s: a row of %d values for %d columns", t.Name, len(row), len(t.Columns))
			}
			if _, err := q.Exec(query, row...); err != nil {
				return 0, fmt.Errorf("writing table %s: %w", t.Name, err)
			}
		}
	}
	return len(byName["tournament"].Rows), nil
}
