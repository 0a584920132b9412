package main

import (
	"context"
	"log"
	"sync"

	"comptoir/cafe"
	"comptoir/dashboard"
	"comptoir/engine"
	"comptoir/games"
	"comptoir/journal"
	"comptoir/table"
	"comptoir/tableconfig"
)

// tableCafe is the table's link to the café's hub: the publisher that
// follows the journal, fed by the session's updates (a new step to send,
// the devices' status) without ever holding the session up.
type tableCafe struct {
	pub  *cafe.Publisher
	sess *table.Session
	dice *diceLog // nil for a table without a dice camera
}

func newTableCafe(cfg *tableconfig.Config, store *journal.Store, sess *table.Session, dice *diceLog, logger *log.Logger) (*tableCafe, error) {
	opts := cafe.DefaultOpts
	opts.Table, opts.URL, opts.User, opts.Password = cfg.Cafe.Name, cfg.Cafe.URL, cfg.Cafe.Name, cfg.Cafe.Password
	opts.Store, opts.Logf = store, logger.Printf
	opts.Rules = func(game string) (engine.Rules, error) {
		if r := sess.Rules(); r.Name() == game {
			return r, nil // the table's own rules, with its board
		}
		g, err := games.Find(gameList(), game)
		if err != nil {
			return nil, err
		}
		return g.Rules(), nil
	}
	pub, err := cafe.New(opts)
	if err != nil {
		return nil, err
	}
	logger.Printf("café: publishing as %s to %s", cfg.Cafe.Name, cfg.Cafe.URL)
	return &tableCafe{pub: pub, sess: sess, dice: dice}, nil
}

// staffCaller is the dashboard's hook to the café's call for staff; nil
// (an untyped nil, so the dashboard sees none) for a table not in a café.
func (c *tableCafe) staffCaller() dashboard.StaffCaller {
	if c == nil {
		return nil
	}
	return c.pub
}

// run runs the publisher and feeds it the session's updates until ctx
// ends. The session's subscription drops an update not read in time: the
// publisher reads the journal, so no step is lost.
func (c *tableCafe) run(ctx context.Context) error {
	var wg sync.WaitGroup
	if d := c.dice; d != nil {
		// how the dice camera fares, with the table's presence
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				c.pub.SetDice(d.health())
				select {
				case <-ctx.Done():
					return
				case <-d.cafeChanged:
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for u := range c.sess.Subscribe(ctx) {
			devs := make([]cafe.Device, 0, len(u.Devices))
			for _, d := range u.Devices {
				devs = append(devs, cafe.Device{Name: d.Device, OK: d.OK, Detail: d.Detail})
			}
			c.pub.SetDevices(devs)
			c.pub.Notify()
		}
	}()
	err := c.pub.Run(ctx)
	wg.Wait()
	return err
}
