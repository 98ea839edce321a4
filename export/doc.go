// Package export writes a tournament for other programs and for people: the
// XLSX workbook and its CSV sheets, the HTML results page and wall sheets
// (with a championship's final phase, final ranking, categories and teams:
// championship.go), and the WOF rating file (.ELO). The .ELO format itself is package elo's; this
// package maps a tournament to an elo.File (ToELO) and, for 'otd import elo',
// an elo.File back to a tournament (FromELO, which guesses the byes, absences
// and withdrawals that other programs' files do not list, infers the final
// phase from the games after the Swiss, and says in notes what it could not
// read for certain). An adapter beside
// the domain: it imports tournament, the leaves and elo.
package export
