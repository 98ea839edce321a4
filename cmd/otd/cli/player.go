package cli

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/otd-project/otd/store"
	"github.com/otd-project/otd/tournament"
	"github.com/spf13/cobra"
)

func newPlayerCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "player",
		Short: "Register, list, edit and withdraw players",
		Long: `Players of the current tournament are numbered 1, 2, ... in order of
registration. Late entries are accepted until their first round is paired.`,
	}
	cmd.AddCommand(newPlayerAddCmd(g), newPlayerImportCmd(g), newPlayerListCmd(g), newPlayerEditCmd(g),
		newPlayerWithdrawCmd(g), newPlayerAbsentCmd(g))
	return cmd
}

func playerJSON(p tournament.Player) map[string]any {
	m := map[string]any{"number": p.Number, "name": p.Name, "rating": p.Rating, "country": p.Country, "first_round": p.FirstRound}
	if p.Left != 0 {
		m["withdrawn_before_round"] = p.Left
	}
	if len(p.Absent) > 0 {
		m["absent"] = p.Absent
	}
	return m
}

// playerNumber parses a player number argument.
func playerNumber(cmd, s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 0, usageErrorf("%s: NUMBER is a player's number (see 'otd player list'), not %q", cmd, s)
	}
	return n, nil
}

func newPlayerAddCmd(g *globals) *cobra.Command {
	var in tournament.PlayerInput
	var asJSON bool
	cmd := &cobra.Command{
		Use:     "add NAME",
		Short:   "Register a player; prints the player's number",
		Example: "  otd player add \"Imre Leader\" --rating 2150 --country GB\n  otd player add \"Late Comer\" --json",
		Args:    argsUsage(cobra.ExactArgs(1)),
		RunE: func(_ *cobra.Command, args []string) error {
			in.Name = args[0]
			var p tournament.Player
			err := inTournament(g, true, func(tx *store.Tx, t *tournament.Tournament) (err error) {
				if p, err = t.AddPlayer(in); err != nil {
					return playerInputError(err)
				}
				return savePlayer(tx, t, "player add", nil, p)
			})
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(g.Stdout, playerJSON(p))
			}
			fmt.Fprintln(g.Stdout, p.Number)
			return nil
		},
	}
	cmd.Flags().IntVar(&in.Rating, "rating", 0, "rating (0: none)")
	cmd.Flags().StringVar(&in.Country, "country", "", "country code, e.g. FR")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the new player as JSON (with its number)")
	return cmd
}

// playerInputError makes a name, rating or country that the tournament
// refuses a usage error, as a wrong flag value is.
func playerInputError(err error) error {
	if errors.Is(err, tournament.ErrInvalid) {
		return &exitError{code: exitUsage, err: err, usage: true}
	}
	return err
}

// savePlayer stores a player and the audit row of the change.
func savePlayer(tx *store.Tx, t *tournament.Tournament, action string, before *tournament.Player, after tournament.Player) error {
	if err := tx.SavePlayer(t.ID, after); err != nil {
		return err
	}
	var b any
	if before != nil {
		b = *before
	}
	_, err := tx.Audit(t.ID, action, fmt.Sprintf("player %d (%s)", after.Number, after.Name), b, after)
	return err
}

func newPlayerImportCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "import FILE.csv",
		Short: "Register every player of a CSV file (name, rating, country)",
		Long: `import registers the players of a CSV file in its order: columns name, then
optionally rating and country; a first row naming the columns is skipped. The
whole file is registered or, on any error, none of it.`,
		Example: "  otd player import players.csv",
		Args:    argsUsage(cobra.ExactArgs(1)),
		RunE: func(_ *cobra.Command, args []string) error {
			ins, err := readPlayersCSV(args[0])
			if err != nil {
				return inputError(err)
			}
			var added []tournament.Player
			err = inTournament(g, true, func(tx *store.Tx, t *tournament.Tournament) error {
				for _, in := range ins {
					p, err := t.AddPlayer(in.PlayerInput)
					if err != nil {
						return playerInputError(fmt.Errorf("%s: line %d: %w", args[0], in.line, err))
					}
					if err := savePlayer(tx, t, "player add", nil, p); err != nil {
						return err
					}
					added = append(added, p)
				}
				return nil
			})
			if err != nil {
				return err
			}
			fmt.Fprintf(g.Stdout, "Registered %d players", len(added))
			if len(added) > 0 {
				fmt.Fprintf(g.Stdout, ", numbers %d to %d", added[0].Number, added[len(added)-1].Number)
			}
			fmt.Fprintln(g.Stdout, ".")
			return nil
		},
	}
}

type csvPlayer struct {
	tournament.PlayerInput
	line int
}

func readPlayersCSV(path string) ([]csvPlayer, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	r.TrimLeadingSpace = true
	var out []csvPlayer
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		line, _ := r.FieldPos(0)
		if len(rec) == 0 || strings.TrimSpace(strings.Join(rec, "")) == "" {
			continue
		}
		if len(out) == 0 && strings.EqualFold(strings.TrimSpace(rec[0]), "name") {
			continue // the header
		}
		if len(rec) > 3 {
			return nil, fmt.Errorf("%s: line %d: %d columns; expected name, rating, country", path, line, len(rec))
		}
		p := csvPlayer{PlayerInput: tournament.PlayerInput{Name: rec[0]}, line: line}
		if len(rec) > 1 && strings.TrimSpace(rec[1]) != "" {
			if p.Rating, err = strconv.Atoi(strings.TrimSpace(rec[1])); err != nil {
				return nil, fmt.Errorf("%s: line %d: rating %q is not a whole number", path, line, rec[1])
			}
		}
		if len(rec) > 2 {
			p.Country = rec[2]
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no players in the file (expected lines of name, rating, country)", path)
	}
	return out, nil
}

func newPlayerListCmd(g *globals) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the players of the current tournament",
		Args:  argsUsage(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			return inTournament(g, false, func(_ *store.Tx, t *tournament.Tournament) error {
				if asJSON {
					out := []map[string]any{}
					for _, p := range t.Players {
						out = append(out, playerJSON(p))
					}
					return writeJSON(g.Stdout, out)
				}
				var rows [][]string
				for _, p := range t.Players {
					rows = append(rows, []string{strconv.Itoa(p.Number), p.Name, ratingText(p.Rating), p.Country, playerStatus(p)})
				}
				return table(g.Stdout, []string{"No", "Name", "Rating", "Country", "Status"}, rows)
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the players as JSON")
	return cmd
}

func ratingText(r int) string {
	if r == 0 {
		return ""
	}
	return strconv.Itoa(r)
}

func playerStatus(p tournament.Player) string {
	var s []string
	if p.FirstRound > 1 {
		s = append(s, fmt.Sprintf("from round %d", p.FirstRound))
	}
	if p.Left != 0 {
		s = append(s, fmt.Sprintf("withdrawn before round %d", p.Left))
	}
	for _, r := range p.Absent {
		s = append(s, fmt.Sprintf("absent round %d", r))
	}
	return strings.Join(s, ", ")
}

func newPlayerEditCmd(g *globals) *cobra.Command {
	var name, country string
	var rating int
	cmd := &cobra.Command{
		Use:     "edit NUMBER [--name NAME] [--rating R] [--country CC]",
		Short:   "Correct a player's name, rating or country",
		Example: "  otd player edit 12 --name \"Ben Smith\" --country GB",
		Args:    argsUsage(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			n, err := playerNumber("player edit", args[0])
			if err != nil {
				return err
			}
			var pn, pc *string
			var pr *int
			if cmd.Flags().Changed("name") {
				pn = &name
			}
			if cmd.Flags().Changed("country") {
				pc = &country
			}
			if cmd.Flags().Changed("rating") {
				pr = &rating
			}
			if pn == nil && pc == nil && pr == nil {
				return usageErrorf("player edit: nothing to change: give --name, --rating or --country")
			}
			return inTournament(g, true, func(tx *store.Tx, t *tournament.Tournament) error {
				before, after, err := t.EditPlayer(n, pn, pr, pc)
				if err != nil {
					return playerInputError(err)
				}
				fmt.Fprintf(g.Stdout, "Player %d: %s, %s, %s\n", after.Number, after.Name, ratingText(after.Rating), after.Country)
				return savePlayer(tx, t, "player edit", &before, after)
			})
		},
	}
	cmd.Flags().StringVar(&name, "name", "", "new name")
	cmd.Flags().IntVar(&rating, "rating", 0, "new rating")
	cmd.Flags().StringVar(&country, "country", "", "new country code")
	return cmd
}

func newPlayerWithdrawCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "withdraw NUMBER",
		Short: "Withdraw a player from the next round on (games played stand)",
		Args:  argsUsage(cobra.ExactArgs(1)),
		RunE: func(_ *cobra.Command, args []string) error {
			n, err := playerNumber("player withdraw", args[0])
			if err != nil {
				return err
			}
			return inTournament(g, true, func(tx *store.Tx, t *tournament.Tournament) error {
				before, after, err := t.Withdraw(n)
				if err != nil {
					return err
				}
				fmt.Fprintf(g.Stdout, "Player %d (%s) is withdrawn from round %d on.\n", after.Number, after.Name, after.Left)
				return savePlayer(tx, t, "player withdraw", &before, after)
			})
		},
	}
}

func newPlayerAbsentCmd(g *globals) *cobra.Command {
	var round int
	cmd := &cobra.Command{
		Use:     "absent NUMBER --round R",
		Short:   "Record that a player will miss a round (not yet paired)",
		Example: "  otd player absent 7 --round 4",
		Args:    argsUsage(cobra.ExactArgs(1)),
		RunE: func(_ *cobra.Command, args []string) error {
			n, err := playerNumber("player absent", args[0])
			if err != nil {
				return err
			}
			return inTournament(g, true, func(tx *store.Tx, t *tournament.Tournament) error {
				before, after, err := t.MarkAbsent(n, round)
				if err != nil {
					return err
				}
				fmt.Fprintf(g.Stdout, "Player %d (%s) is absent from round %d.\n", after.Number, after.Name, round)
				return savePlayer(tx, t, "player absent", &before, after)
			})
		},
	}
	cmd.Flags().IntVar(&round, "round", 0, "the round missed (required)")
	cmd.MarkFlagRequired("round")
	return cmd
}
