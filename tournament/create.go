package tournament

// Created returns the change that creates t with its settings (a new
// tournament): the first entry of its audit trail.
func (t *Tournament) Created() Change {
	s := t.Settings
	return t.change(ActTournamentNew, s.Name, State{}, State{Settings: &s})
}

// Imported returns the change that creates t, read whole from another
// program's file (source names it): the first entry of its audit trail.
func (t *Tournament) Imported(source string) Change {
	return t.change(ActImport, source, State{}, State{Players: t.Players, Games: t.Games, FinalGames: t.FinalGames})
}
