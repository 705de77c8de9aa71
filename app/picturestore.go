package app

import (
	"container/list"
	"context"
	"image"
	"io"
	"sync"
)

// PictureBudget is the memory decoded pictures may take at once, counting the
// one being decoded; beyond it the least recently seen are dropped and
// decoded again when drawn.
const PictureBudget = 256 << 20

// keptPictureFiles bounds kept picture downloads, so a redraw need not download again.
const keptPictureFiles = 64 << 20

// minHeldSize is the least a shown picture counts for: its view is kept with
// it, so tiny pictures cannot pile up without bound.
const minHeldSize = 64 << 10

// pictureStore keeps decoded pictures within one budget and downloaded files
// within another. A view holds its picture until dropped, so the pictures
// alive are the ones counted.
type pictureStore struct {
	budget int64
	// decoding allows one decode at a time: its working memory adds to the picture's.
	decoding chan struct{}

	mu sync.Mutex
	// held are the pictures views hold, most recently seen first.
	held list.List
	used int64
	// files are the downloaded files, most recently used first.
	files     list.List
	fileByKey map[string]*list.Element
	fileBytes int64
}

// heldPicture is a picture one view holds.
type heldPicture struct {
	key     string
	img     image.Image // nil while it is being decoded
	size    int64
	dropped func()
	el      *list.Element // nil once dropped
}

type keptFile struct {
	key  string
	data []byte
}

// newPictureStore keeps decoded pictures within budget (PictureBudget when 0).
func newPictureStore(budget int64) *pictureStore {
	if budget <= 0 {
		budget = PictureBudget
	}
	return &pictureStore{budget: budget, decoding: make(chan struct{}, 1), fileByKey: map[string]*list.Element{}}
}

// show decodes src after making room for it and its decoder's working
// memory, and holds it until dropped; one that cannot fit is PictureTooBig.
func (s *pictureStore) show(ctx context.Context, key string, src io.ReadSeeker, dropped func()) (image.Image, func(), error) {
	select {
	case s.decoding <- struct{}{}:
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	}
	defer func() { <-s.decoding }()
	// The same picture may have been decoded while this one waited.
	if img, seen := s.share(key, dropped); img != nil {
		return img, seen, nil
	}
	var h *heldPicture
	var n int64
	img, err := decodePicture(src, func(cfg image.Config, working int64) error {
		n = decodedSize(cfg)
		if n+working > s.budget {
			return &PictureError{Reason: PictureTooBig, Width: cfg.Width, Height: cfg.Height}
		}
		h = s.hold(key, nil, n+working, dropped)
		return nil
	})
	if err != nil {
		if h != nil {
			s.forget(h)
		}
		return nil, nil, err
	}
	// Decoded: the decoder's working memory is given back.
	s.mu.Lock()
	if h.el != nil {
		h.img = img
		s.used -= h.size - max(n, minHeldSize)
		h.size = max(n, minHeldSize)
	}
	s.mu.Unlock()
	return img, func() { s.seen(h) }, nil
}

// share holds an already decoded picture for another view. It counts again,
// so the budget bounds what views hold whichever lets go first.
func (s *pictureStore) share(key string, dropped func()) (image.Image, func()) {
	s.mu.Lock()
	var img image.Image
	var size int64
	for el := s.held.Front(); el != nil; el = el.Next() {
		if h := el.Value.(*heldPicture); h.key == key && h.img != nil {
			img, size = h.img, h.size
			break
		}
	}
	s.mu.Unlock()
	if img == nil {
		return nil, nil
	}
	h := s.hold(key, img, size, dropped)
	return img, func() { s.seen(h) }
}

// hold counts a picture for a view, dropping the least recently seen until it
// fits; their views hear of it outside the lock.
func (s *pictureStore) hold(key string, img image.Image, size int64, dropped func()) *heldPicture {
	h := &heldPicture{key: key, img: img, size: max(size, minHeldSize), dropped: dropped}
	var out []*heldPicture
	s.mu.Lock()
	h.el = s.held.PushFront(h)
	s.used += h.size
	for s.used > s.budget && s.held.Back() != h.el {
		old := s.held.Back().Value.(*heldPicture)
		s.remove(old)
		out = append(out, old)
	}
	s.mu.Unlock()
	for _, old := range out {
		if old.dropped != nil {
			old.dropped()
		}
	}
	return h
}

// remove takes h out of the budget; s.mu is held.
func (s *pictureStore) remove(h *heldPicture) {
	s.held.Remove(h.el)
	h.el, h.img = nil, nil
	s.used -= h.size
}

// forget takes back the room made for a picture that did not decode.
func (s *pictureStore) forget(h *heldPicture) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if h.el != nil {
		s.remove(h)
	}
}

// seen marks h as drawn just now: the last to be dropped.
func (s *pictureStore) seen(h *heldPicture) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if h.el != nil {
		s.held.MoveToFront(h.el)
	}
}

// file is the downloaded file kept for key.
func (s *pictureStore) file(key string) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	el, ok := s.fileByKey[key]
	if !ok {
		return nil, false
	}
	s.files.MoveToFront(el)
	return el.Value.(*keptFile).data, true
}

// keepFile keeps a download, dropping the least recently used beyond keptPictureFiles.
func (s *pictureStore) keepFile(key string, data []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.fileByKey[key]; ok || len(data) > keptPictureFiles {
		return
	}
	s.fileByKey[key] = s.files.PushFront(&keptFile{key: key, data: data})
	s.fileBytes += int64(len(data))
	for s.fileBytes > keptPictureFiles {
		old := s.files.Remove(s.files.Back()).(*keptFile)
		delete(s.fileByKey, old.key)
		s.fileBytes -= int64(len(old.data))
	}
}
