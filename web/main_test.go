package web

import (
	"os"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"github.com/otd-project/otd/app"
)

// TestMain hashes the director's passwords of the tests at bcrypt's lowest
// cost: the login tests check passwords hundreds of times, and what they
// prove (who gets in, what is slowed) does not depend on the cost.
func TestMain(m *testing.M) {
	app.PasswordCost = bcrypt.MinCost
	os.Exit(m.Run())
}
