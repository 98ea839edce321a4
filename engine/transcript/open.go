package transcript

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/otd-project/otd/internal/userfile"
)

// StartsJSON reports whether the input r starts with '{' after spaces (and
// a byte-order mark): a JSON document, such as a FlipTheDisc tournament
// file, which no game record is. It consumes nothing: it returns the reader
// to read the input from (r itself when r is an io.ReaderAt, such as a
// file).
func StartsJSON(r io.Reader) (io.Reader, bool) {
	head := make([]byte, 512)
	n := 0
	if ra, ok := r.(io.ReaderAt); ok {
		var err error
		if n, err = ra.ReadAt(head, 0); err != nil && !errors.Is(err, io.EOF) {
			n = -1 // a pipe: no ReadAt
		}
	} else {
		n = -1
	}
	if n < 0 {
		br := bufio.NewReader(r)
		head, _ = br.Peek(512)
		r, n = br, len(head)
	}
	t := bytes.TrimLeft(head[:n], " \t\r\n\uFEFF")
	return r, len(t) > 0 && t[0] == '{'
}

// NamesBeside loads the names of the WTHOR database wtb from the files
// WTHOR.JOU (players) and WTHOR.TRN (tournaments) in its folder, if they
// are there (any case); nil if the folder cannot be read. A names file that
// cannot be read or parsed leaves its names out.
func NamesBeside(wtb string) *Names {
	dir := filepath.Dir(wtb)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var names Names
	for _, e := range entries {
		var dst *[]string
		size := 0
		switch strings.ToUpper(e.Name()) {
		case "WTHOR.JOU":
			dst, size = &names.Players, 20
		case "WTHOR.TRN":
			dst, size = &names.Tournaments, 26
		default:
			continue
		}
		// A names file holds at most 65,535 names: its count is a uint16.
		if data, err := userfile.ReadFile(filepath.Join(dir, e.Name()), 16+(1<<16)*int64(size)); err == nil {
			*dst, _ = ParseNames(data, size)
		}
	}
	return &names
}
