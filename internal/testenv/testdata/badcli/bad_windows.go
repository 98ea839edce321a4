package badcli

// Built for another system than the test's: its imports are checked all the
// same.
import _ "github.com/otd-project/otd/engine/nboard"
