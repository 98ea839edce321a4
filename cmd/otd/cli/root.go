// Package cli holds otd's commands: one file per command group, each command an
// options struct and a run function, testable without a terminal, and its
// flags without a database (a command made with a runF hands it the
// options; see globals). The commands parse and render; what they do is the
// Director's (package tournament).
package cli

import (
	"bufio"
	"errors"
	"fmt"
	"github.com/otd-project/otd/app"
	"io"
	"os"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/otd-project/otd/elo"
	"github.com/otd-project/otd/internal/txt"
	"github.com/otd-project/otd/tournament"
	"github.com/spf13/cobra"
)

// Exit statuses shared by every command.
const (
	exitOK      = 0
	exitFailure = 1 // the command ran and found a problem (e.g. an illegal transcript)
	exitUsage   = 2 // wrong usage or unreadable input
)

// version is set at link time: -ldflags "-X github.com/otd-project/otd/cmd/otd/cli.version=v1.2.3".
var version = ""

// exitError carries an exit status up to Main. A nil err means the command
// already reported what it had to say. usage marks a wrong command line: the
// message then ends with the command's help to read.
type exitError struct {
	code  int
	err   error
	usage bool
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// usageErrorf reports wrong usage (exit status 2).
func usageErrorf(format string, a ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, a...), usage: true}
}

// inputError reports an input file that cannot be read (exit status 2).
func inputError(err error) error { return &exitError{code: exitUsage, err: err} }

// globals are the options every command shares, and the commands' factory
// (cli/cli's cmdutil.Factory): a command reads its flags into its options
// and hands them to its run function (a test's runF instead, which keeps
// them), which takes the Director and the tournament it acts on from here
// (db.go: app, event, current, do).
type globals struct {
	DB         string
	Tournament string           // --tournament: an id or a name; "": the database's current tournament
	Now        func() time.Time // the clock of the audit trail; nil: the system clock
	Stdin      io.Reader
	Stdout     io.Writer
	Stderr     io.Writer
	// Store, if its Storage is set, is the database the Director works on
	// in place of the one DB names: a test's Storage in memory.
	Store app.Store
	// Actor, if set, is who the changes of the command say made them (otd
	// worker: the worker); zero: the command line and its user (actor).
	Actor tournament.Actor

	id int64 // the tournament the command acts on, once read (target)
}

// Main runs otd with the process's arguments and streams and returns the exit status.
func Main() int { return Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr) }

// Run runs otd with the given arguments and streams and returns the exit
// status. What the commands print goes through a txt.Writer: nothing a
// store or a file holds acts on the terminal (an escape sequence, a bell, a
// bidirectional override) or leaves a byte that is not UTF-8, wherever it is
// printed. What must go out as it is takes txt.Raw(g.Stdout): a file's bytes
// (writeOutput, whose documents escape their own text), a QR code's colours,
// a progress bar.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	out, errs := txt.NewWriter(stdout), txt.NewWriter(stderr)
	g := &globals{Stdin: stdin, Stdout: out, Stderr: errs}
	code := g.execute(newRootCmd(g), args)
	out.Flush()
	errs.Flush()
	return code
}

// execute runs the command line args on root with g's streams and returns
// the exit status, the error said on g.Stderr.
func (g *globals) execute(root *cobra.Command, args []string) int {
	root.SetArgs(args)
	root.SetIn(g.Stdin)
	root.SetOut(g.Stdout)
	root.SetErr(g.Stderr)
	cmd, err := root.ExecuteC()
	if err == nil {
		return exitOK
	}
	if name, ok := unknownName(err, cmd); ok && cmd == root {
		err = unknownCommand(root, name) // cobra's own, in one line, with otd's suggestion
	}
	code, line := errorLine(err, cmd.CommandPath())
	if line != "" {
		fmt.Fprintf(g.Stderr, "otd: %s\n", line)
	}
	return code
}

// errorLine returns the exit status of a command's error and the line that
// says it (none if the command already did): the problem, what to do, and
// for wrong usage the help to read. The line is readable whatever the user
// gave: each quoted value is cut to 80 characters, a byte that is not text
// is written as an escape (\x01), and the line is cut to maxErrorLine.
func errorLine(err error, cmdPath string) (code int, line string) {
	msg := worded(err) + advice(err)
	if errors.Is(err, bufio.ErrTooLong) || strings.Contains(msg, bufio.ErrTooLong.Error()) {
		// Every reader says which line and its limit; this is a net for one that does not.
		msg = strings.ReplaceAll(msg, bufio.ErrTooLong.Error(), "a line is longer than 64 KiB, more than otd reads")
	}
	msg = strings.ReplaceAll(strings.TrimSpace(msg), "\r\n", "\n")
	msg = readableLine(strings.ReplaceAll(msg, "\n", "; "))
	code, usage := exitFailure, false
	var ee *exitError
	switch {
	case errors.As(err, &ee):
		code, usage = ee.code, ee.usage
		if ee.err == nil {
			return code, ""
		}
	case strings.HasPrefix(msg, "unknown command"), strings.HasPrefix(msg, "unknown flag"), strings.HasPrefix(msg, "required flag"):
		code, usage = exitUsage, true
	}
	if usage {
		msg += fmt.Sprintf("; see '%s --help'", cmdPath)
	}
	return code, msg
}

// advisedError is an error with what to do about it where the command
// knows better than advice (another flag than --db names the file).
type advisedError struct {
	error
	advice string // "; ..."
}

func (e *advisedError) Unwrap() error { return e.error }

// advice is what to do about an error the layers below report without it
// (they do not know the command line): "; ..." or "".
func advice(err error) string {
	var advised *advisedError
	var dup *tournament.DuplicateError
	var dupName *tournament.DuplicateNameError
	var notFound *tournament.NotFoundError
	var stored *tournament.StoredNameError
	switch {
	case errors.As(err, &advised):
		return advised.advice
	case errors.As(err, &stored):
		return fmt.Sprintf("; add --name NAME to the command ('otd player edit %d --name NAME ...'; 'otd player list' shows the name stored, escaped)", stored.Number)
	case errors.As(err, &dup):
		return fmt.Sprintf("; choose another name, or work on it with 'otd tournament use %d'", dup.ID)
	case errors.As(err, &dupName):
		return "; if it is the same person, they are registered already; two people of one name: tell them apart (a club or city after the name), or add --allow-duplicate"
	case errors.As(err, &notFound):
		return "; 'otd tournament list' shows them"
	case errors.Is(err, tournament.ErrNoTournament):
		return "; create one with 'otd tournament new NAME --rounds N'"
	}
	return storeAdvice(err)
}

// maxQuoted is the length, in characters, to which a value quoted in a
// message is cut; maxErrorLine the length of a whole error line.
const (
	maxQuoted    = 80
	maxErrorLine = 400
)

// readableLine makes an error message one readable line: every quoted value
// ("...", as %q writes it) longer than maxQuoted characters is cut, every
// other character that is not printable is escaped as %q would, and a line
// still longer than maxErrorLine keeps its start and its end (what to do).
func readableLine(msg string) string {
	if len(msg) > 1<<20 { // only its start and end are shown
		msg = msg[:1<<19] + msg[len(msg)-1<<10:]
	}
	var b strings.Builder
	for i := 0; i < len(msg); {
		if msg[i] == '"' {
			if q, err := strconv.QuotedPrefix(msg[i:]); err == nil {
				i += len(q)
				if utf8.RuneCountInString(q) > maxQuoted+2 {
					v, _ := strconv.Unquote(q)
					q = elo.QuoteCut(v)
				}
				b.WriteString(q)
				continue
			}
		}
		j := i + 1 // up to the next quote
		if k := strings.IndexByte(msg[j:], '"'); k >= 0 {
			j += k
		} else {
			j = len(msg)
		}
		b.WriteString(txt.Printable(msg[i:j]))
		i = j
	}
	out := b.String()
	if rs := []rune(out); len(rs) > maxErrorLine {
		const tail = 120
		out = string(rs[:maxErrorLine-tail-3]) + " … " + string(rs[len(rs)-tail:])
	}
	return out
}

func newRootCmd(g *globals) *cobra.Command {
	root := newBareRootCmd(g)
	root.AddCommand(
		newVersionCmd(g, nil),
		newPerftCmd(g, nil),
		newVerifyCmd(g, nil),
		newTournamentCmd(g),
		newPlayerCmd(g),
		newRoundCmd(g),
		newPairCmd(g),
		newFinalCmd(g),
		newCategoryCmd(g),
		newTeamsCmd(g, nil),
		newResultCmd(g, nil),
		newUndoCmd(g, nil),
		newLogCmd(g, nil),
		newStandingsCmd(g, nil),
		newCrosstableCmd(g, nil),
		newImportCmd(g),
		newExportCmd(g),
		newDemoCmd(g, nil),
		newPairingCmd(g),
		newServeCmd(g, nil),
		newBackupCmd(g, nil),
		newRestoreCmd(g, nil),
		newArchiveCmd(g),
		newRatingCmd(g, nil),
		newWorkerCmd(g, nil),
		newJSONHelpTopic(),
	)
	// cobra's own suggestions are otd's (unknownCommand).
	root.DisableSuggestions = true
	groupsRefuseUnknown(root)
	return root
}

// groupsRefuseUnknown makes every group below parent (a command of
// subcommands that runs nothing itself) take an unknown subcommand as wrong
// usage, with a suggestion; cobra would print the group's help and succeed.
func groupsRefuseUnknown(parent *cobra.Command) {
	for _, c := range parent.Commands() {
		if c.HasSubCommands() && !c.Runnable() {
			c.Args = func(c *cobra.Command, args []string) error {
				if len(args) > 0 {
					return unknownCommand(c, args[0])
				}
				return nil
			}
			c.RunE = func(c *cobra.Command, _ []string) error { return c.Help() }
		}
		groupsRefuseUnknown(c)
	}
}

// unknownCommand is wrong usage: name is no subcommand of c; the line names
// the subcommands it may have meant (cobra's own suggestions: a prefix, or
// two letters off).
func unknownCommand(c *cobra.Command, name string) error {
	msg := fmt.Sprintf("unknown command %q for %q", name, c.CommandPath())
	if c.SuggestionsMinimumDistance <= 0 {
		c.SuggestionsMinimumDistance = 2
	}
	if s := c.SuggestionsFor(name); len(s) > 0 {
		for i := range s {
			s[i] = "'" + c.CommandPath() + " " + s[i] + "'"
		}
		msg += fmt.Sprintf(" (did you mean %s?)", strings.Join(s, " or "))
	}
	return &exitError{code: exitUsage, usage: true, err: errors.New(msg)}
}

// unknownName is the name in cobra's "unknown command NAME for CMD".
func unknownName(err error, cmd *cobra.Command) (string, bool) {
	rest, ok := strings.CutPrefix(err.Error(), "unknown command ")
	if !ok {
		return "", false
	}
	name, err2 := strconv.QuotedPrefix(rest)
	if err2 != nil {
		return "", false
	}
	name, _ = strconv.Unquote(name)
	return name, true
}

// newBareRootCmd is otd's root command without its commands: the global
// flags (into g) and the handling of wrong flags.
func newBareRootCmd(g *globals) *cobra.Command {
	root := &cobra.Command{
		Use:   "otd",
		Short: "otd, the Othello tournament director",
		Long: `otd runs an Othello tournament from registration to the final spreadsheet,
and verifies disputed game transcripts.`,
		Example: `  otd verify game.txt --claimed 40-24   # who really won this disputed game?
  otd verify WTH_2019.wtb                # check a whole WTHOR database
  otd perft 9                            # count positions, to check the rules engine`,
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	def := os.Getenv("OTD_DB")
	if def == "" {
		def = "otd.db"
	}
	root.PersistentFlags().StringVar(&g.DB, "db", def, "tournament database: an SQLite file, or a PostgreSQL database as postgres://USER:PASSWORD@HOST/DATABASE (env OTD_DB)")
	root.PersistentFlags().StringVar(&g.Tournament, "tournament", os.Getenv("OTD_TOURNAMENT"),
		"the tournament to act on, by `ID or name` (env OTD_TOURNAMENT); default: the current one ('otd tournament use')")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return &exitError{code: exitUsage, err: flagError(err), usage: true}
	})
	return root
}

// argsUsage wraps a cobra argument validator so that its failures exit with status 2.
func argsUsage(v cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		err := v(cmd, args)
		if err == nil {
			return nil
		}
		if strings.HasPrefix(err.Error(), "accepts 1 arg(s)") && len(args) > 1 {
			err = fmt.Errorf("%w: a name with spaces goes in quotes, e.g. %s %q", err, cmd.CommandPath(), strings.Join(args, " "))
		}
		return &exitError{code: exitUsage, err: err, usage: true}
	}
}

type versionOptions struct{}

func newVersionCmd(g *globals, runF func(versionOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(versionOptions) error {
			fmt.Fprintf(g.Stdout, "otd %s\n", buildVersion())
			return nil
		}
	}
	return &cobra.Command{
		Use:   "version",
		Short: "Print otd's version",
		Args:  argsUsage(cobra.NoArgs),
		RunE:  func(*cobra.Command, []string) error { return runF(versionOptions{}) },
	}
}

func buildVersion() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

// numberFlag matches pflag's report of a number flag given something else.
var numberFlag = regexp.MustCompile(`^invalid argument "(.*)" for "(.*)" flag: strconv\.Parse\w+: parsing ".*": (invalid syntax|value out of range)$`)

// flagError says in words what pflag says of a bad number:
// '--rating "high": not a whole number' rather than strconv's words.
func flagError(err error) error {
	m := numberFlag.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	what := "not a whole number"
	if m[3] == "value out of range" {
		what = "out of range"
	}
	flag := m[2]
	if i := strings.LastIndex(flag, "--"); i >= 0 {
		flag = flag[i:] // "-r, --rounds" -> "--rounds"
	}
	return fmt.Errorf("%s %q: %s", flag, m[1], what)
}
