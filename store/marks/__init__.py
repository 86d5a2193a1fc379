"""The user's marks: the TinyDB database (`db`, where it is: `place`, its tables and documents: `documents`), its journaled storage and files (`journal`,
`journal_files`, `sealed`), the lock two processes share (`lock`), the database's clock (`clock`: a hybrid logical clock) and its
device id, unique to the database instance (`device`), what an action changes and its undo
(`changes`, `history`), the merge rule of marks made on several devices (`merge`), and saved searches
(`saved`). The database keeps the record of each paper it holds marks on in `store.library`'s file beside
it, and when it first saw each paper (`kept`: the methods of `db`'s store that do). Imports `library`, `papers` and `common`."""
