// Package interchange builds a tournament from another program's file and
// infers what the file leaves implicit: the WOF rating file (.ELO: FromELO,
// FromELOWith, which guess the byes, absences and withdrawals that other
// programs' files do not list, and say in notes what they could not read
// for certain) and FlipTheDisc's JSON (FromFTD); the final phase after the
// Swiss from its games (InferFinal). It also gives the WOF archive its
// reading of an .ELO file (ArchiveGames, archive.Build: a file is in the
// archive exactly when it can be imported) and a director's tournament as
// the archive takes one (ToArchive). Writing is package export's. An
// adapter beside the domain: it imports tournament, archive, the leaves and
// the file formats (elo, ftd), never another adapter.
package interchange
