package main

import (
	"io"

	"comptoir/cmd/internal/dicefeed"
)

func init() {
	commands["dicefeed"] = command{
		summary: dicefeed.Summary,
		run: func(args []string, stdout, stderr io.Writer) error {
			if err := dicefeed.Run(args, stdout, stderr); err != dicefeed.ErrUsage {
				return err
			}
			return errUsage
		},
	}
}
