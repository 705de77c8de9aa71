package app

import "github.com/agentdesk/agentdesk/storage"

// The records screens show, named here so screens never reach past app into storage.
type (
	// Run is one run of an image, text or video agent, as history keeps it.
	Run = storage.Run
	// Conversation is a chat and its settings.
	Conversation = storage.Conversation
	// Message is one turn of a conversation.
	Message = storage.Message
	// MemoryEntry is a memory as this computer knows it (with its draft).
	MemoryEntry = storage.MemoryEntry
	// CollectionEntry is a memory collection as this computer knows it.
	CollectionEntry = storage.CollectionEntry
	// Account is one service account (never its key).
	Account = storage.Account
	// Settings are the user's settings.
	Settings = storage.Settings
	// Batch is one run of an agent over many rows, and BatchRow one row.
	Batch    = storage.Batch
	BatchRow = storage.BatchRow
	// RowState is where a batch's row is in its life.
	RowState = storage.RowState
	// CreditRecord is one charge: a run, an upload, a memory saved.
	CreditRecord = storage.CreditRecord
	// AccountPrefs are an account's favourite and recent agents and its daily
	// limit; AgentRef names one agent with its title as last seen.
	AccountPrefs = storage.AccountPrefs
	AgentRef     = storage.AgentRef
	// SavedAnswer is a filled form kept under a name for its agent.
	SavedAnswer = storage.SavedAnswer
)

// How far a batch, and a row of it, has gone.
const (
	BatchRunning   = storage.BatchRunning
	BatchPaused    = storage.BatchPaused
	BatchCancelled = storage.BatchCancelled
	BatchDone      = storage.BatchDone
	RowWaiting     = storage.RowWaiting
	RowSending     = storage.RowSending
	RowStarting    = storage.RowStarting
	RowRunning     = storage.RowRunning
	RowDone        = storage.RowDone
	RowFailed      = storage.RowFailed
	RowSkipped     = storage.RowSkipped
)

// What a charge was for.
const (
	ChargeFile   = storage.CreditsFile
	ChargeMemory = storage.CreditsMemory
)

// How a reply ended, and who wrote a message.
const (
	MessageComplete    = storage.StatusComplete
	MessageStopped     = storage.StatusStopped
	MessageFailed      = storage.StatusFailed
	MessageInterrupted = storage.StatusInterrupted
	MessageRecovered   = storage.StatusRecovered
	RoleUser           = storage.RoleUser
	RoleAssistant      = storage.RoleAssistant
)

// Theme choices, and the demo account's id.
const (
	ThemeSystem   = storage.ThemeSystem
	ThemeLight    = storage.ThemeLight
	ThemeDark     = storage.ThemeDark
	DemoAccountID = storage.DemoAccountID
	TextSizeMin   = storage.TextSizeMin
	TextSizeMax   = storage.TextSizeMax
)
