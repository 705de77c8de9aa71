package storage

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"syscall"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

var (
	// ErrNotFound means the record asked for is not in the history.
	ErrNotFound = errors.New("not found")
	// ErrReadOnly means the history is read-only this session.
	ErrReadOnly = errors.New("the history is open read-only, so changes cannot be saved")
)

// Error is a storage failure in plain words: the operation, file and reason.
type Error struct {
	Op     string // "open the history", "save the reply", …
	Path   string
	Reason string // "the disk is full", "permission was denied", …
	Err    error
}

func (e *Error) Error() string {
	if e.Path == "" {
		return fmt.Sprintf("Agent Desk could not %s: %s", e.Op, e.Reason)
	}
	return fmt.Sprintf("Agent Desk could not %s (%s): %s", e.Op, e.Path, e.Reason)
}

func (e *Error) Unwrap() error { return e.Err }

const reasonFull = "the disk is full"

// wrap makes err an *Error; nil, ErrNotFound, context and plain errors pass.
func wrap(op, path string, err error) error {
	if err == nil || errors.Is(err, ErrNotFound) {
		return err
	}
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return &Error{Op: op, Path: path, Reason: reason(err), Err: err}
}

func reason(err error) string {
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_FULL:
			return reasonFull
		case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
			return "the file is locked by another program (is Agent Desk already running?)"
		case sqlite3.SQLITE_PERM, sqlite3.SQLITE_AUTH:
			return "permission was denied"
		case sqlite3.SQLITE_READONLY:
			return "the file or its folder cannot be written to"
		case sqlite3.SQLITE_CANTOPEN:
			return "the file cannot be opened for writing (its folder may be read-only or belong to another user)"
		case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
			return "the file is damaged or is not an Agent Desk history"
		case sqlite3.SQLITE_IOERR:
			if se.Code() == sqlite3.SQLITE_IOERR_WRITE || se.Code() == sqlite3.SQLITE_IOERR_FSYNC {
				return "the disk could not be written (it may be full or failing)"
			}
			return "the disk could not be read or written"
		}
		return se.Error()
	}
	if errors.Is(err, ErrReadOnly) {
		return ErrReadOnly.Error()
	}
	return plainOSError(err)
}

func plainOSError(err error) string {
	switch {
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		return reasonFull
	case errors.Is(err, syscall.EROFS):
		return "the disk is read-only"
	case errors.Is(err, fs.ErrPermission):
		return "permission was denied"
	case errors.Is(err, fs.ErrNotExist):
		return "the file or folder does not exist"
	case errors.Is(err, syscall.ENOTDIR):
		return "a file is in the way where a folder should be"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
