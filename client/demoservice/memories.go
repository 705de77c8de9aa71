package demoservice

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

const maxMemoryChars = 32000

// defaultCollectionID holds memories created without a collection.
// Assumption: a memory created without collection_id goes into the user's
// "General" collection, so collection_id is always an integer as the
// interface types it.
const defaultCollectionID int64 = 1

// Memory is a stored memory.
// Assumption: memories and collections belong to the user, not to a
// workspace; x-workspace-id is accepted on them and does not filter.
// Variant A shows Content as "memory" with credits and collection; B as
// "content" with metadata and timestamps.
type Memory struct {
	ID           int64
	UserID       int64
	Content      string
	Metadata     map[string]any
	CollectionID int64
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

// Collection is a memory collection; DisplayName shows in the real reading only.
type Collection struct {
	ID          int64  `json:"id"`
	UserID      int64  `json:"user_id"`
	Name        string `json:"name"`
	DisplayName string `json:"display_name,omitempty"`
}

// Memory returns a snapshot of memory id.
func (s *Service) Memory(id int64) (Memory, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.memories[id]
	if !ok {
		return Memory{}, false
	}
	c := *m
	c.Metadata = maps.Clone(m.Metadata)
	return c, true
}

// Collection returns a snapshot of collection id.
func (s *Service) Collection(id int64) (Collection, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.collections[id]; ok {
		return *c, true
	}
	return Collection{}, false
}

type memoryA struct {
	ID           int64       `json:"id"`
	UserID       int64       `json:"user_id"`
	Memory       string      `json:"memory"`
	Credits      float64     `json:"credits"`
	CollectionID int64       `json:"collection_id"`
	Collection   *Collection `json:"collection,omitempty"`
}

type memoryB struct {
	ID        int64          `json:"id"`
	Content   string         `json:"content"`
	Metadata  map[string]any `json:"metadata"`
	CreatedAt string         `json:"created_at"`
	UpdatedAt string         `json:"updated_at"`
}

func (m Memory) wireB() memoryB {
	meta := m.Metadata
	if meta == nil {
		meta = map[string]any{}
	}
	return memoryB{ID: m.ID, Content: m.Content, Metadata: meta, CreatedAt: offsetUTC(m.CreatedAt), UpdatedAt: offsetUTC(m.UpdatedAt)}
}

func (m Memory) wireA() memoryA {
	return memoryA{ID: m.ID, UserID: m.UserID, Memory: m.Content, Credits: memoryCredits(m.Content), CollectionID: m.CollectionID}
}

// memoryChange reads a body of the configured variant (creating: content
// required) as the change to make. A body of the other variant fails naming
// this variant's field: how clients detect it.
func (s *Service) memoryChange(body map[string]any, creating bool) func(*Memory) {
	if s.opts.MemoryVariant != "B" {
		text := textField(body, "memory", true, maxMemoryChars)
		collID := s.collectionField(body)
		return func(m *Memory) {
			m.Content, m.CollectionID = text, cmp.Or(collID, m.CollectionID)
		}
	}
	_, hasContent := body["content"]
	content := textField(body, "content", creating, math.MaxInt)
	_, hasMeta := body["metadata"]
	meta := metadataOf(body)
	return func(m *Memory) {
		if hasContent {
			m.Content = content
		}
		if hasMeta || creating {
			m.Metadata = meta
		}
	}
}

// createMemory answers POST /memories in the configured variant.
// Assumption: a created memory answers 201 Created in both variants.
func (s *Service) createMemory(w http.ResponseWriter, r *http.Request) {
	change := s.memoryChange(readJSONObject(w, r), true)
	now := s.now()
	m := &Memory{UserID: demoUserID, CollectionID: defaultCollectionID, CreatedAt: now, UpdatedAt: now}
	change(m)
	s.mu.Lock()
	s.nextMemID++
	m.ID = s.nextMemID
	s.memories[m.ID] = m
	out := *m
	s.mu.Unlock()
	if s.opts.MemoryVariant == "B" {
		writeJSON(w, http.StatusCreated, out.wireB())
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{"message": "Memory created successfully", "memory": out.wireA()})
}

// updateMemory answers PATCH /memories/{id} (variant A: the answer carries
// the collection) or PUT (B: content and metadata optional).
func (s *Service) updateMemory(w http.ResponseWriter, r *http.Request) {
	updateRecord(s, w, r, s.memories, "Memory not found", func(body map[string]any) func(*Memory) {
		change := s.memoryChange(body, false)
		return func(m *Memory) {
			change(m)
			m.UpdatedAt = s.now()
		}
	}, func(m *Memory) any {
		if s.opts.MemoryVariant == "B" {
			return m.wireB()
		}
		out := m.wireA()
		if c, ok := s.collections[m.CollectionID]; ok {
			cc := *c
			out.Collection = &cc
		}
		return map[string]any{"message": "Memory updated successfully", "memory": out}
	})
}

// updateRecord answers an update of records[{id}] alike for every kind: 404
// first, then read validates and returns the change, applied and answered
// under the lock.
func updateRecord[T any](s *Service, w http.ResponseWriter, r *http.Request, records map[int64]*T, notFound string,
	read func(body map[string]any) func(*T), answer func(*T) any) {
	byPath(s, r, "id", records, nil, notFound)
	change := read(readJSONObject(w, r))
	var out any
	byPath(s, r, "id", records, nil, notFound, func(_ int64, rec *T) {
		change(rec)
		out = answer(rec)
	})
	writeJSON(w, http.StatusOK, out)
}

// textField reads a string field of at most maxChars characters, ending
// the request on failure; "" when an optional one is absent.
func textField(body map[string]any, field string, required bool, maxChars int) string {
	raw := body[field]
	text, isStr := raw.(string)
	switch {
	case raw == nil && !required:
	case raw == nil || (isStr && strings.TrimSpace(text) == ""):
		invalid(field, "The "+field+" field is required.")
	case !isStr:
		invalid(field, "The "+field+" field must be a string.")
	case utf8.RuneCountInString(text) > maxChars:
		invalid(field, fmt.Sprintf("The %s field must not be greater than %d characters.", field, maxChars))
	}
	return text
}

func metadataOf(body map[string]any) map[string]any {
	raw := body["metadata"]
	if raw == nil {
		return map[string]any{}
	}
	meta, isObj := raw.(map[string]any)
	if !isObj {
		invalid("metadata", "The metadata field must be an object.")
	}
	return meta
}

func (s *Service) collectionField(body map[string]any) int64 {
	raw := body["collection_id"]
	if raw == nil {
		return 0
	}
	id, ok := asInt(raw)
	if ok {
		_, ok = s.Collection(id)
	}
	if !ok {
		invalid("collection_id", "The selected collection_id is invalid.")
	}
	return id
}

// updateCollection answers PUT /memory-collections/{id}; real: display name follows name.
func (s *Service) updateCollection(w http.ResponseWriter, r *http.Request) {
	updateRecord(s, w, r, s.collections, "Collection not found", func(body map[string]any) func(*Collection) {
		name := collectionName(body)
		return func(c *Collection) {
			c.Name = name
			if s.real {
				c.DisplayName = name
			}
		}
	}, func(c *Collection) any {
		return map[string]any{"message": "Collection updated successfully", "collection": *c}
	})
}

// Real reading only: list and delete memories; list, create, delete collections.

const (
	memoryPerPage    = 10
	memoryMaxPerPage = 50
)

// listMemories answers GET /memories with page, per_page and collection_id.
// Assumption: newest first; a collection_id that names no collection of the
// user lists nothing.
func (s *Service) listMemories(w http.ResponseWriter, r *http.Request) {
	p := readPage(r, memoryPerPage, memoryMaxPerPage)
	var coll int64
	if v := strings.TrimSpace(r.URL.Query().Get("collection_id")); v != "" {
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			invalid("collection_id", "The collection_id must be an integer.")
		}
		coll = id
	}
	all := collect(s, s.memories, func(m *Memory) bool { return coll == 0 || m.CollectionID == coll })
	slices.SortFunc(all, func(a, b Memory) int {
		return -cmp.Or(a.CreatedAt.Compare(b.CreatedAt), cmp.Compare(a.ID, b.ID))
	})
	items := wire(pageOf(all, p), Memory.wireA)
	writeJSON(w, http.StatusOK, map[string]any{"message": "Memories fetched successfully!", "memories": items, "meta": p.shortMeta(len(all))})
}

func (s *Service) deleteMemory(w http.ResponseWriter, r *http.Request) {
	deleteRecord(s, w, r, s.memories, nil, "Memory", func(int64) {})
}

// deleteRecord answers a DELETE of records[{id}], what naming the kind: 404
// unless mine accepts it (nil: the user's memories and collections, whose 404
// is {"message"} in both readings), else it deletes it and, under the lock,
// what goes with it (also).
func deleteRecord[T any](s *Service, w http.ResponseWriter, r *http.Request, records map[int64]*T, mine func(*T) bool, what string, also func(id int64)) {
	byPath(s, r, "id", records, mine, what+" not found", func(id int64, _ *T) {
		delete(records, id)
		also(id)
	})
	writeMessage(w, http.StatusOK, what+" deleted successfully")
}

// listCollections answers GET /memory-collections, searching names ignoring
// case, oldest first.
func (s *Service) listCollections(w http.ResponseWriter, r *http.Request) {
	p := readPage(r, memoryPerPage, memoryMaxPerPage)
	q := searchParam(r, "search")
	all := collect(s, s.collections, func(c *Collection) bool { return matchesText(q, c.Name, c.DisplayName) })
	writeJSON(w, http.StatusOK, map[string]any{"message": "success", "collections": pageOf(all, p), "meta": p.shortMeta(len(all))})
}

func collectionName(body map[string]any) string {
	return strings.TrimSpace(textField(body, "name", true, 255))
}

// createCollection answers POST /memory-collections with body name.
// Assumption: the display name is the name given; names need not be unique.
func (s *Service) createCollection(w http.ResponseWriter, r *http.Request) {
	name := collectionName(readJSONObject(w, r))
	s.mu.Lock()
	c := &Collection{ID: slices.Max(slices.Collect(maps.Keys(s.collections))) + 1, UserID: demoUserID, Name: name, DisplayName: name}
	s.collections[c.ID] = c
	out := *c
	s.mu.Unlock()
	writeJSON(w, http.StatusCreated, map[string]any{"message": "Collection created successfully", "collection": out})
}

// deleteCollection deletes a collection with its memories; the default stays.
func (s *Service) deleteCollection(w http.ResponseWriter, r *http.Request) {
	if id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64); id == defaultCollectionID {
		abortPlain(http.StatusForbidden, "Default collection cannot be deleted")
	}
	deleteRecord(s, w, r, s.collections, nil, "Collection", func(id int64) {
		maps.DeleteFunc(s.memories, func(_ int64, m *Memory) bool { return m.CollectionID == id })
	})
}
