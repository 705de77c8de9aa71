// Package house holds whole-module checks, run by go test, for rules the
// compiler and vet do not enforce.
package house
