import { useState } from 'react';
import { Button } from '../../components/Button';
import { Modal } from '../../components/Modal';
import { useT } from '../../i18n';
import guideVideo from './guide-video.json';

/** The configured guide video's embed address (guide-video.json), or null while there is none. */
export const GUIDE_VIDEO_URL: string | null = (guideVideo as { url: string | null }).url;

/** The 16:9 frame of the guide video (spec 000 §2 "a guide video modal (16:9)"). */
const FRAME_STYLE = { aspectRatio: '16 / 9' } as const;

/**
 * "Watch the guide": a button that opens the video at `url` in a modal (spec 000 §2; coverage SH10).
 * The dashboard passes GUIDE_VIDEO_URL and draws no button while it is null (the server's
 * Content-Security-Policy frames that host and no other); the frame keeps 16:9 at any width and is unloaded when the modal closes, so
 * the video stops. The modal is the shared `<dialog>` one: focus stays inside, Escape closes it,
 * and focus returns to the button.
 */
export function GuideVideoButton({ url }: { url: string }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="plain" onClick={() => setOpen(true)}>
        {t('guideVideo.open')}
      </Button>
      <Modal open={open} wide title={t('guideVideo.title')} secondaryLabel={t('guideVideo.close')} onClose={() => setOpen(false)}>
        <div className="video-frame" style={FRAME_STYLE}>
          <iframe
            className="video-frame__player"
            src={url}
            title={t('guideVideo.frame')}
            allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
            allowFullScreen
            referrerPolicy="strict-origin-when-cross-origin"
          />
        </div>
      </Modal>
    </>
  );
}
