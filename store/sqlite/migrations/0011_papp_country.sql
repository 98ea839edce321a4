-- otd schema 11: the papp pairing model charges compatriots 2 in every
-- round, as Papp is run (its distributed papp.cfg: "Chauvinisme: ronde 1+ =
-- 2"); before, otd's papp charged them in round 1 only, Papp's compiled
-- default. The tournaments of earlier schemas keep the model they were
-- paired with: the store's Go step (keepPappCountry) writes country=2/0 into
-- every papp model that does not set the compatriots' cost itself.
SELECT 1;
