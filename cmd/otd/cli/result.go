package cli

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/store"
	"github.com/otd-project/otd/tournament"
	"github.com/spf13/cobra"
)

type resultOptions struct {
	Round, Table int
	In           tournament.ResultInput
	Correct      bool
}

func newResultCmd(g *globals) *cobra.Command {
	var o resultOptions
	var timeDefault, forfeit string
	cmd := &cobra.Command{
		Use:   "result ROUND TABLE B-W",
		Short: "Record a game's result: black's discs, then white's",
		Long: `result records the discs of black and white at the end of a game. Empty
squares go to the winner: 40-22 is recorded 42-22, a tie with empties 32-32.

A time default names the colour whose flag fell; B-W is then the game as the
winner completed it, recorded by the tournament's policy (complete: at least
33-31 for the winner; fixed: 33-31; wipeout: 64-0). A forfeit names the
colour that did not play; it needs no B-W.

A game that has a result is changed only with --correct; every change is in
'otd log', and 'otd result undo' reverts the last one.`,
		Example: `  otd result 3 1 40-24
  otd result 3 2 30-28 --time-default white
  otd result 3 4 --forfeit black
  otd result 2 5 33-31 --correct
  otd result undo`,
		Args: argsUsage(cobra.RangeArgs(2, 3)),
		RunE: func(_ *cobra.Command, args []string) error {
			var err error
			if o.Round, err = strconv.Atoi(args[0]); err != nil || o.Round < 1 {
				return usageErrorf("result: ROUND is a round number, not %q", args[0])
			}
			if o.Table, err = strconv.Atoi(args[1]); err != nil || o.Table < 1 {
				return usageErrorf("result: TABLE is a table number, not %q", args[1])
			}
			if o.In.TimeDefault, err = colourFlag("--time-default", timeDefault); err != nil {
				return err
			}
			if o.In.Forfeit, err = colourFlag("--forfeit", forfeit); err != nil {
				return err
			}
			switch {
			case o.In.TimeDefault != "" && o.In.Forfeit != "":
				return usageErrorf("result: a game ends by a time default or by a forfeit, not both")
			case len(args) == 2 && o.In.Forfeit == "":
				return usageErrorf("result: give the score B-W (black's discs first), e.g. 'otd result %d %d 40-24'", o.Round, o.Table)
			case len(args) == 3:
				sc, err := engine.ParseScore(args[2])
				if err != nil {
					return usageErrorf("result: %w", err)
				}
				o.In.Black, o.In.White, o.In.HasScore = sc.Black, sc.White, true
			}
			return runResult(g, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&timeDefault, "time-default", "", "the colour whose flag fell: black or white")
	f.StringVar(&forfeit, "forfeit", "", "the colour that did not play: black or white")
	f.BoolVar(&o.Correct, "correct", false, "replace the result the game already has")
	cmd.AddCommand(newResultUndoCmd(g))
	return cmd
}

func colourFlag(flag, v string) (tournament.Color, error) {
	switch v {
	case "":
		return "", nil
	case "black", "b", "B":
		return tournament.Black, nil
	case "white", "w", "W":
		return tournament.White, nil
	}
	return "", usageErrorf("result: %s is black or white, not %q", flag, v)
}

func runResult(g *globals, o resultOptions) error {
	return inTournament(g, true, func(tx *store.Tx, t *tournament.Tournament) error {
		before, after, err := t.RecordResult(o.Round, o.Table, o.In, o.Correct)
		if err != nil {
			return err
		}
		if err := tx.SetResult(t.ID, o.Round, o.Table, &after); err != nil {
			return err
		}
		gm, _ := t.Game(o.Round, o.Table)
		action := "result"
		if before != nil {
			action = "result correct"
		}
		subject := fmt.Sprintf("round %d table %d (%d %s - %d %s)", o.Round, o.Table, gm.Black, t.Players[gm.Black-1].Name, gm.White, t.Players[gm.White-1].Name)
		if _, err := tx.Audit(t.ID, action, subject, gameRef{o.Round, o.Table, before}, gameRef{o.Round, o.Table, &after}); err != nil {
			return err
		}
		fmt.Fprintf(g.Stdout, "Round %d table %d: %s", o.Round, o.Table, after)
		if before != nil {
			fmt.Fprintf(g.Stdout, " (was %s)", before)
		}
		fmt.Fprintln(g.Stdout)
		return nil
	})
}

// gameRef is a game's result as the audit trail keeps it.
type gameRef struct {
	Round, Table int
	Result       *tournament.Result
}

func newResultUndoCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "undo",
		Short: "Revert the last result entered or corrected",
		Args:  argsUsage(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			return inTournament(g, true, func(tx *store.Tx, t *tournament.Tournament) error {
				last, err := tx.LastUndoable(t.ID, "result", "result correct")
				if err != nil {
					return fmt.Errorf("%w: no result has been entered", err)
				}
				var before, after gameRef
				if err := json.Unmarshal([]byte(last.Before), &before); err != nil {
					return fmt.Errorf("audit entry %d: %w", last.ID, err)
				}
				if err := json.Unmarshal([]byte(last.After), &after); err != nil {
					return fmt.Errorf("audit entry %d: %w", last.ID, err)
				}
				if err := t.RestoreResult(before.Round, before.Table, before.Result); err != nil {
					return err
				}
				if err := tx.SetResult(t.ID, before.Round, before.Table, before.Result); err != nil {
					return err
				}
				id, err := tx.Audit(t.ID, "result undo", last.Subject, after, before)
				if err != nil {
					return err
				}
				if err := tx.MarkUndone(last.ID, id); err != nil {
					return err
				}
				was := "no result"
				if before.Result != nil {
					was = before.Result.String()
				}
				fmt.Fprintf(g.Stdout, "Undone: %s: %s is back to %s.\n", last.Action, last.Subject, was)
				return nil
			})
		},
	}
}

func newLogCmd(g *globals) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "log",
		Short: "Show the audit trail of the current tournament: every change, when, before and after",
		Args:  argsUsage(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			return inTournament(g, false, func(tx *store.Tx, t *tournament.Tournament) error {
				rows, err := tx.Log(t.ID)
				if err != nil {
					return err
				}
				if asJSON {
					out := []map[string]any{}
					for _, r := range rows {
						out = append(out, map[string]any{"id": r.ID, "at": r.At, "action": r.Action, "subject": r.Subject,
							"before": json.RawMessage(orNull(r.Before)), "after": json.RawMessage(orNull(r.After)), "undone_by": r.Undone})
					}
					return writeJSON(g.Stdout, out)
				}
				var tab [][]string
				for _, r := range rows {
					note := ""
					if r.Undone != 0 {
						note = fmt.Sprintf("undone by %d", r.Undone)
					}
					tab = append(tab, []string{strconv.FormatInt(r.ID, 10), r.At.Local().Format("2006-01-02 15:04:05"), r.Action, r.Subject, note})
				}
				return table(g.Stdout, []string{"#", "When", "Action", "What", ""}, tab)
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the trail as JSON, with before and after")
	return cmd
}

func orNull(s string) string {
	if s == "" {
		return "null"
	}
	return s
}
