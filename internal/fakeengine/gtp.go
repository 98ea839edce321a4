package fakeengine

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/otd-project/otd/engine"
)

// gtp returns the handler of a GTP fake: it keeps its board from boardsize,
// play, genmove and clear_board, and reports the exit status when it is done.
func (f *fake) gtp() func(line string) (int, bool) {
	rules := engine.Othello()
	p, _ := engine.NewPosition(rules)
	genmoves, plays, refused := 0, 0, false
	return func(line string) (int, bool) {
		fs := strings.Fields(line)
		id := ""
		if _, err := strconv.Atoi(fs[0]); err == nil && len(fs) > 1 {
			id, fs = fs[0], fs[1:]
		}
		answer := func(ok bool, text string) {
			f.flood()
			c, nl := "=", "\n"
			if !ok {
				c = "?"
			}
			switch {
			case f.style == "tight":
				id, nl, text = "", "\r\n", strings.ToUpper(text)
			case f.style == "edax" && id != "": // Edax 4.6: printf("= %d ", id); puts(text)
				id, text = " "+id, " "+text
			case text != "" || id != "":
				text = " " + text
			}
			fmt.Fprintf(f.out, "%s%s%s%s%s", c, id, text, nl, nl)
			f.out.Flush()
		}
		switch fs[0] {
		case "quit":
			answer(true, "")
			return 0, f.mode != "ignorequit" && f.mode != "noeof"
		case "name":
			answer(true, f.name())
		case "version":
			answer(true, "1.0")
		case "boardsize":
			n := 0
			if len(fs) == 2 {
				n, _ = strconv.Atoi(fs[1])
			}
			r := engine.Othello()
			r.Size = n
			q, err := engine.NewPosition(r)
			if err != nil || !f.sizes[n] {
				answer(false, "unacceptable size")
				break
			}
			rules, p = r, q
			answer(true, "")
		case "clear_board":
			p, _ = engine.NewPosition(rules)
			answer(true, "")
		case "time_settings", "time_left":
			answer(true, "")
		case "play":
			plays++
			if len(fs) != 3 {
				answer(false, "syntax error")
				break
			}
			if f.mode == "refuse" && plays == f.n && !refused {
				refused = true
				answer(false, "illegal move")
				break
			}
			m := engine.PassPoint
			if strings.EqualFold(fs[2], "pass") {
				if f.mode == "nopass" {
					answer(false, "syntax error")
					break
				}
			} else {
				var err error
				if m, err = engine.ParsePoint(fs[2]); err != nil {
					answer(false, "syntax error")
					break
				}
			}
			colour := strings.ToLower(fs[1])
			if p.ToMove().String() != colour && f.mode == "nopass" && p.MustPass() {
				p, _ = p.Play(engine.PassPoint)
			}
			q, err := p.Play(m)
			if err != nil || p.ToMove().String() != colour {
				answer(false, "illegal move")
				break
			}
			p = q
			answer(true, "")
		case "genmove":
			genmoves++
			if len(fs) != 2 {
				answer(false, "syntax error")
				break
			}
			if genmoves == max(f.n, 1) {
				switch f.mode {
				case "garbage":
					fmt.Fprintf(f.out, "thinking... best line d3 c5\n\n")
					f.out.Flush()
					return 0, false
				case "longline":
					fmt.Fprintf(f.out, "= %s\n\n", strings.Repeat("x", 100<<10))
					f.out.Flush()
					return 0, false
				}
			}
			if f.strike(genmoves, p, func(m string) { answer(true, m) }) {
				break
			}
			colour := strings.ToLower(fs[1])
			if f.mode == "nopass" && p.ToMove().String() != colour && p.MustPass() {
				p, _ = p.Play(engine.PassPoint)
			}
			ms := p.Moves()
			if len(ms) == 0 || p.ToMove().String() != colour {
				answer(false, "not my turn")
				break
			}
			p, _ = p.Play(ms[0])
			answer(true, ms[0].String())
		default:
			answer(false, "unknown command")
		}
		return 0, false
	}
}
