// Package export writes a tournament for other programs and for people: the
// XLSX workbook and its CSV sheets, the HTML results page and wall sheets
// (with a championship's final phase, final ranking, categories and teams:
// championship.go), and the WOF rating file (.ELO). The .ELO format itself
// is package elo's; this package maps a tournament to an elo.File (ToELO).
// Reading another program's file into a tournament is package
// interchange's. An adapter beside the domain: it imports app, tournament,
// the leaves and elo. The HTML pages' data is app's (app.ResultsPage,
// app.WallPage...), their templates internal/htmlpage's, which otd serve's
// pages (package web) share.
package export
