package testenv

import (
	"flag"
	"os"
	"runtime"
	"strconv"
)

// Quick wraps a package's tests (the m of its TestMain) so that they spend
// their time on the work they check rather than on the disk and on waits:
//
//   - Unless TMPDIR names a folder already, the tests' temporary files
//     (t.TempDir, testscript's work folders) and those of the processes they
//     start go to a new folder on a memory file system (MemoryTemp), removed
//     at the end. SQLite syncs every commit to the disk (synchronous=FULL),
//     about 10 ms each on a virtual machine's disk and nothing in memory; a
//     new database's migrations alone make 77 syncs. No test checks what
//     reaches the disk itself: a process killed by a test leaves its writes
//     in the page cache on either file system.
//   - Unless -parallel is given, the parallel tests run 4 at a time per CPU
//     (go's default: 1 per CPU): many of them wait most of their time (on
//     PostgreSQL's server, on an engine's time limit, on a process they
//     started), not computing.
func Quick(m interface{ Run() int }) interface{ Run() int } {
	return quick{m}
}

type quick struct{ m interface{ Run() int } }

func (q quick) Run() int {
	if os.Getenv("TMPDIR") == "" {
		if dir := MemoryTemp(); dir != "" {
			os.Setenv("TMPDIR", dir)
			defer os.RemoveAll(dir)
		}
	}
	if !flag.Parsed() {
		flag.Parse()
	}
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		flag.Set("test.parallel", strconv.Itoa(4*runtime.GOMAXPROCS(0)))
	}
	return q.m.Run()
}
